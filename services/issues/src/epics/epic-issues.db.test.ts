import { openScratchDatabase, type Database } from "@collab/db";
import { eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { epicIssues, epics, issues, notes, type EpicRow, type IssueRow } from "../db/schema";
import { createIssue, deleteIssue } from "../domain/issues";
import { epicsOfIssues, findEpicIssue, findEpicIssues, findIssueEpic } from "./epic-issues.finder";
import { moveEpicIssue, setIssueEpic } from "./epic-issues";

/** The epic issues finder and writes against the service's migrated tables. */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("issues-epic-issues"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_issues" });
});
afterAll(() => dispose?.());
beforeEach(() =>
  database.db.execute(sql`TRUNCATE issues.issues, issues.epics, issues.epic_issues, issues.notes, issues.outbox, issues.subscriptions, issues.internal_ids RESTART IDENTITY CASCADE`),
);

const PROJECT = 1;
const project = { namespace_id: 10, path_with_namespace: "platform/api", group_ids: [10] };
const author = { id: 7, username: "author" };
const issue = (title: string, confidential = false): Promise<IssueRow> => createIssue(database.db, PROJECT, author, { title, confidential }, randomUUID());
const epic = async (iid: number): Promise<EpicRow> => (await database.db.insert(epics).values({ groupId: 10, iid, title: `Epic ${iid}`, authorId: 7 }).returning())[0];
const link = (i: IssueRow, e: EpicRow) => database.db.transaction((tx) => setIssueEpic(tx, i, e, 7, project));
/** Everyone reads the project; confidential issues only its Reporters (and their authors). */
const scope = (accessLevel: number, callerId = 99) => ({ caller: { id: callerId, username: "u", admin: false } as never, projects: [{ id: PROJECT, access_level: accessLevel, issues_access_level: "enabled" }], defaultScope: "all" as const });
const titles = async (epicId: number, accessLevel = 20, page = { page: 1, per_page: 20 }) => (await findEpicIssues(database.db, epicId, scope(accessLevel), page)).rows.map((r) => r.title);

test("a page of an epic's issues: newest association first, the caller's readable ones, counted", async () => {
  const roadmap = await epic(1);
  for (const i of [await issue("First"), await issue("Second"), await issue("Secret", true)]) await link(i, roadmap);
  await link(await issue("Elsewhere"), await epic(2));

  expect(await titles(roadmap.id)).toEqual(["Secret", "Second", "First"]);
  // A Guest does not read the confidential issue, nor is it counted.
  const guest = await findEpicIssues(database.db, roadmap.id, scope(10), { page: 1, per_page: 1 });
  expect([guest.rows.map((r) => r.title), guest.total]).toEqual([["Second"], 2]);
  const [row] = guest.rows;
  expect(row).toMatchObject({ labelIds: [], assigneeIds: [], epicIssueId: expect.any(Number), epicIssuePosition: expect.any(Number) });
});

test("an association is found only inside its own epic", async () => {
  const [one, two] = [await epic(1), await epic(2)];
  const { link: l } = await link(await issue("Bug"), one);
  expect(await findEpicIssue(database.db, one.id, l!.id)).toMatchObject({ id: l!.id, epicId: one.id });
  expect(await findEpicIssue(database.db, two.id, l!.id)).toBeUndefined();
});

test("an issue moves between epics keeping its association; the same epic twice changes nothing", async () => {
  const [one, two] = [await epic(1), await epic(2)];
  const bug = await issue("Bug");
  const first = await link(bug, one);
  expect(first).toMatchObject({ changed: true, previousEpic: null });
  expect(await link(bug, one)).toMatchObject({ changed: false });
  const moved = await link(bug, two);
  expect(moved).toMatchObject({ changed: true, previousEpic: { id: one.id }, link: { id: first.link!.id, epicId: two.id } });
  expect((await findIssueEpic(database.db, bug.id))?.epic.id).toBe(two.id);
  const cleared = await database.db.transaction((tx) => setIssueEpic(tx, bug, null, 7, project));
  expect(cleared).toMatchObject({ changed: true, link: null, previousEpic: { id: two.id } });
  const bodies = (await database.db.select().from(notes).where(eq(notes.noteableId, bug.id))).sort((p, q) => p.id - q.id).map((n) => n.body);
  expect(bodies).toEqual(["added to epic &1", "changed epic to &2", "removed from epic &2"]);
});

test("moving between neighbours, with a rebalance when they leave no room", async () => {
  const roadmap = await epic(1);
  const [a, b, c] = [await issue("A"), await issue("B"), await issue("C")];
  const links = [];
  for (const i of [a, b, c]) links.push((await link(i, roadmap)).link!);
  expect(await titles(roadmap.id)).toEqual(["C", "B", "A"]);
  // A right after C: C stands before it.
  await database.db.transaction((tx) => moveEpicIssue(tx, links[0], links[2], undefined));
  expect(await titles(roadmap.id)).toEqual(["C", "A", "B"]);
  // Neighbours one apart: the epic's positions are spread again and the move still lands between them.
  await database.db.update(epicIssues).set({ relativePosition: sql`CASE ${epicIssues.id} WHEN ${links[2].id} THEN 10 WHEN ${links[0].id} THEN 11 ELSE 12 END` });
  await database.db.transaction((tx) => moveEpicIssue(tx, links[1], links[2], links[0]));
  expect(await titles(roadmap.id)).toEqual(["C", "B", "A"]);
});

test("deleting an issue or an epic removes its associations; a page's epics are read in one query", async () => {
  const [one, two] = [await epic(1), await epic(2)];
  const [x, y, z] = [await issue("X"), await issue("Y"), await issue("Z")];
  await link(x, one);
  await link(y, two);
  const page = await epicsOfIssues(database.db, [x.id, y.id, z.id]);
  expect([...page.entries()].map(([id, e]) => [id, e.iid])).toEqual([
    [x.id, 1],
    [y.id, 2],
  ]);
  await deleteIssue(database.db, x);
  await database.db.delete(epics).where(eq(epics.id, two.id));
  expect(await database.db.select().from(epicIssues)).toEqual([]);
  expect((await database.db.select().from(issues)).map((i) => i.title).sort()).toEqual(["Y", "Z"]);
});
