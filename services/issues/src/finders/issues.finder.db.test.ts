import { AccessLevel } from "@collab/core";
import { openScratchDatabase, type Database } from "@collab/db";
import { ListIssuesParams } from "@collab/issues-contract";
import { sql } from "drizzle-orm";
import path from "node:path";
import { issueAssignees, issues } from "../db/schema";
import { findIssues, type IssueScope } from "./issues.finder";

/**
 * Cross-project lists in created_at / updated_at order are read as a merge of each project's first
 * rows (findIssues' merged page): the pages must be the ones one sort of every readable row gives.
 */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("issues-finder"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_issues" });
}, 60_000);
afterAll(() => dispose?.());

const caller = { id: 50, username: "guest", admin: false };
const T = Date.parse("2026-01-01T00:00:00Z");
const at = (seconds: number) => new Date(T + seconds * 1000);

type Seeded = { id: number; projectId: number; createdAt: Date; updatedAt: Date; visible: boolean };
let seeded: Seeded[] = [];

beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE issues.issues, issues.issue_assignees RESTART IDENTITY CASCADE`);
  // Project 1 (Reporter: its confidential issues too) every 2 s, project 2 (Guest) every 3 s: they
  // interleave and tie across projects at 0, 6, 12 s; each project also has a tie of its own.
  // Project 3's issues are hidden from the caller (issues disabled there).
  const rows: (typeof issues.$inferInsert)[] = [];
  const iid: Record<number, number> = {};
  const add = (projectId: number, created: number, updated: number, extra: Partial<typeof issues.$inferInsert> = {}) =>
    rows.push({ projectId, iid: (iid[projectId] = (iid[projectId] ?? 0) + 1), title: `p${projectId} ${created}`, authorId: 1, createdAt: at(created), updatedAt: at(updated), ...extra });
  for (let k = 0; k < 8; k++) add(1, 2 * k, 100 - 5 * k, { confidential: k === 3 });
  add(1, 4, 80);
  for (let k = 0; k < 7; k++) add(2, 3 * k, 60 + 4 * k);
  add(2, 9, 70);
  add(2, 5, 90, { confidential: true }); // hidden: Guest, neither author nor assignee
  add(2, 7, 95, { confidential: true, authorId: caller.id });
  add(2, 8, 85, { confidential: true }); // assigned to the caller below
  for (let k = 0; k < 4; k++) add(3, k, k);
  const inserted = await database.db.insert(issues).values(rows).returning();
  const assigned = inserted.find((r) => r.projectId === 2 && r.createdAt.getTime() === at(8).getTime())!;
  await database.db.insert(issueAssignees).values({ issueId: assigned.id, userId: caller.id });
  const hidden = inserted.find((r) => r.projectId === 2 && r.createdAt.getTime() === at(5).getTime())!;
  seeded = inserted.map((r) => ({ id: r.id, projectId: r.projectId, createdAt: r.createdAt, updatedAt: r.updatedAt, visible: r.projectId !== 3 && r.id !== hidden.id }));
});

const scope: IssueScope = {
  caller,
  projects: [
    { id: 1, access_level: AccessLevel.REPORTER, issues_access_level: "enabled" },
    { id: 2, access_level: AccessLevel.GUEST, issues_access_level: "enabled" },
    { id: 3, access_level: AccessLevel.GUEST, issues_access_level: "disabled" },
  ],
  defaultScope: "all",
};

/** Every readable row in one sort: the order the page statement gives without the merge. */
function expected(column: "createdAt" | "updatedAt", sort: "asc" | "desc") {
  const sign = sort === "asc" ? 1 : -1;
  return seeded
    .filter((r) => r.visible)
    .sort((a, b) => sign * (a[column].getTime() - b[column].getTime() || a.id - b.id))
    .map((r) => r.id);
}

const pageOf = async (params: Record<string, string>) => {
  const p = ListIssuesParams.parse({ scope: "all", per_page: "4", ...params });
  const { rows, total } = await findIssues(database.db, p, scope, { labelIds: {} });
  return { ids: rows.map((r) => r.id), total };
};

test.each([
  ["created_at", "desc", "createdAt"],
  ["created_at", "asc", "createdAt"],
  ["updated_at", "desc", "updatedAt"],
  ["updated_at", "asc", "updatedAt"],
] as const)("order_by=%s sort=%s: every page is the one sort's page, ties broken by id, past the end empty", async (orderBy, sort, column) => {
  const all = expected(column, sort);
  expect(all).toHaveLength(19);
  for (let page = 1; page <= 6; page++) {
    expect(await pageOf({ order_by: orderBy, sort, page: String(page) })).toEqual({ ids: all.slice((page - 1) * 4, page * 4), total: all.length });
  }
});

test("the filters still apply inside each project's rows (state, confidential)", async () => {
  await database.db.execute(sql`UPDATE issues.issues SET state = 'closed' WHERE created_at IN (${at(6)}, ${at(12)})`);
  const closed = seeded.filter((r) => r.visible && [6, 12].includes((r.createdAt.getTime() - T) / 1000));
  const order = expected("createdAt", "desc");
  expect(await pageOf({ state: "closed", per_page: "10" })).toEqual({ ids: order.filter((id) => closed.some((r) => r.id === id)), total: closed.length });
  const opened = order.filter((id) => !closed.some((r) => r.id === id));
  expect(await pageOf({ state: "opened", page: "2" })).toEqual({ ids: opened.slice(4, 8), total: opened.length });
  const confidential = (await database.db.select({ id: issues.id }).from(issues).where(sql`${issues.confidential}`)).map((r) => r.id);
  expect(await pageOf({ confidential: "true", per_page: "10" })).toEqual({ ids: order.filter((id) => confidential.includes(id)), total: 3 });
});
