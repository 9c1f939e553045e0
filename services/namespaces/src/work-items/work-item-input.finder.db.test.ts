import { openScratchDatabase, type Database } from "@collab/db";
import { sql } from "drizzle-orm";
import path from "node:path";
import { labels, members, milestones, namespaces, projects, type NamespaceRow, type ProjectRow } from "../db/schema";
import { labelsByTitles } from "../labels/labels.finder";
import { projectAccessOfUsers } from "../members/access";
import { findMilestoneInScope } from "../milestones/milestones.finder";
import { findWorkItemInputRows } from "./work-item-input.finder";

/** The one-statement read of a work item write's input answers what each finder answers alone. */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("namespaces-work-item-input"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_namespaces" });
});
afterAll(() => dispose?.());

let group: NamespaceRow;
let sub: NamespaceRow;
let project: ProjectRow;
let other: ProjectRow;
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE namespaces.namespaces, namespaces.projects, namespaces.members, namespaces.labels, namespaces.milestones RESTART IDENTITY CASCADE`);
  const db = database.db;
  [group] = await db.insert(namespaces).values({ kind: "group", name: "Acme", path: "acme", fullPath: "acme", fullName: "Acme" }).returning();
  [sub] = await db.insert(namespaces).values({ kind: "group", name: "Web", path: "web", fullPath: "acme/web", fullName: "Acme / Web", parentId: group.id, traversalIds: [group.id] }).returning();
  [sub] = await db.update(namespaces).set({ traversalIds: [group.id, sub.id] }).where(sql`${namespaces.id} = ${sub.id}`).returning();
  [project, other] = await db.insert(projects).values([{ namespaceId: sub.id, name: "api", path: "api" }, { namespaceId: group.id, name: "other", path: "other" }]).returning();
  await db.insert(members).values([
    { sourceType: "Project", sourceId: project.id, userId: 1, accessLevel: 30 },
    { sourceType: "Namespace", sourceId: group.id, userId: 1, accessLevel: 20 },
    { sourceType: "Namespace", sourceId: sub.id, userId: 2, accessLevel: 40 },
    { sourceType: "Project", sourceId: other.id, userId: 3, accessLevel: 50 },
  ]);
  await db.insert(labels).values([
    { projectId: project.id, title: "bug", color: "#ff0000" },
    { groupId: group.id, title: "bug", color: "#00ff00" },
    { groupId: sub.id, title: "ux", color: "#0000ff" },
    { projectId: other.id, title: "perf", color: "#000000" },
  ]);
  await db.insert(milestones).values([
    { iid: 1, projectId: project.id, title: "v1", dueDate: "2027-01-31" },
    { iid: 1, groupId: group.id, title: "Q1" },
    { iid: 2, projectId: other.id, title: "elsewhere" },
  ]);
});

const query = (o: { userIds?: number[]; milestoneId?: number | null; titles?: string[] }) => ({
  projectId: project.id,
  namespaceIds: sub.traversalIds,
  groupIds: sub.traversalIds,
  userIds: o.userIds ?? [],
  milestoneId: o.milestoneId ?? null,
  titles: o.titles ?? [],
});

test("member levels, the milestone in scope and the labels by title, as the finders answer them", async () => {
  const db = database.db;
  const [mine, groupMilestone, elsewhere] = await db.select().from(milestones).orderBy(milestones.id);
  for (const milestoneId of [mine.id, groupMilestone.id]) {
    const rows = await findWorkItemInputRows(db, query({ userIds: [1, 2, 3, 4], milestoneId, titles: ["bug", "ux", "perf", "none"] }));
    expect(rows.milestone).toEqual(await findMilestoneInScope(db, { projectIds: [project.id], groupIds: sub.traversalIds }, milestoneId));
    expect(rows.milestone?.milestone.id).toBe(milestoneId);
    expect(rows.labels).toEqual(await labelsByTitles(db, { projectIds: [project.id], groupIds: sub.traversalIds }, ["bug", "ux", "perf", "none"]));
    expect(rows.labels.map((l) => l.title)).toEqual(["bug", "bug", "ux"]);
    expect(rows.labels[0].createdAt).toBeInstanceOf(Date);
    const levels = new Map([...(await projectAccessOfUsers(db, project, sub, [1, 2, 3, 4]))].map(([id, a]) => [id, a.level]));
    expect(levels).toEqual(new Map([[1, 30], [2, 40], [3, 0], [4, 0]]));
    const fromRows = rows.levels.map((l) => [l.userId, l.sourceType, l.level]).sort();
    expect(fromRows).toEqual([[1, "Namespace", 20], [1, "Project", 30], [2, "Namespace", 40]]);
  }
  // Another project's milestone is not in scope.
  expect((await findWorkItemInputRows(db, query({ milestoneId: elsewhere.id }))).milestone).toBeUndefined();
});

test("parts not asked for answer nothing", async () => {
  expect(await findWorkItemInputRows(database.db, query({}))).toEqual({ levels: [], milestone: undefined, labels: [] });
});
