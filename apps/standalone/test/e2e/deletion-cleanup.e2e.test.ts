import { call } from "@collab/core";
import { ImportExport } from "@collab/import-export-contract";
import { apiClient, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

// The purge and import/export timers stay off in the embedded app; these tests remove at once with
// permanently_remove and build exports with import-export.worker.tick.
process.env.DELETION_PURGE_INTERVAL_MS ??= "0";
process.env.IMPORT_EXPORT_TICK_MS ??= "0";

/**
 * When namespaces removes a project or a group for good, the services holding data about it
 * follow (namespaces.project.deleted, namespaces.group.deleted): issues drops the project's
 * issues and notes, runners its pipelines, schedules and the runners that served only it.
 * In the distributed pass the effects land shortly after the DELETE answers, hence eventually().
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("deletion-cleanup");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

async function removeForGood(kind: "groups" | "projects", id: number, fullPath: string) {
  expect((await root.delete(`/${kind}/${id}`)).status).toBe(202);
  const res = await root.delete(`/${kind}/${id}`, { query: { permanently_remove: true, full_path: fullPath } });
  expect(res.status).toBe(202);
  expect((await root.get(`/${kind}/${id}`)).status).toBe(404);
}

const runnerIds = async () => ((await root.get("/runners/all", { query: { per_page: 100 } })).body as { id: number }[]).map((r) => r.id);

test("a project removed for good takes its issues, notes, schedules and its own runners; a shared runner stays", async () => {
  const doomed = (await root.post("/projects", { json: { name: "doomed" } })).body;
  const kept = (await root.post("/projects", { json: { name: "kept" } })).body;
  const issue = (await root.post(`/projects/${doomed.id}/issues`, { json: { title: "Goes away" } })).body;
  const note = (await root.post(`/projects/${doomed.id}/issues/${issue.iid}/notes`, { json: { body: "and me" } })).body;
  expect(note.id).toBeGreaterThan(0);
  const keptIssue = (await root.post(`/projects/${kept.id}/issues`, { json: { title: "Stays" } })).body;
  const schedule = await root.post(`/projects/${doomed.id}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 1 * * *" } });
  expect(schedule.status).toBe(201);
  const own = (await root.post("/user/runners", { json: { runner_type: "project_type", project_id: doomed.id, description: "own" } })).body;
  const shared = (await root.post("/user/runners", { json: { runner_type: "project_type", project_id: doomed.id, description: "shared" } })).body;
  expect((await root.post(`/projects/${kept.id}/runners`, { json: { runner_id: shared.id } })).status).toBe(201);
  expect(await runnerIds()).toEqual(expect.arrayContaining([own.id, shared.id]));
  expect((await root.get(`/issues/${issue.id}`)).status).toBe(200);

  await removeForGood("projects", doomed.id, doomed.path_with_namespace);

  await eventually(async () => {
    expect((await root.get(`/issues/${issue.id}`)).status).toBe(404);
    const ids = await runnerIds();
    expect(ids).not.toContain(own.id);
    expect(ids).toContain(shared.id);
  });
  const sharedNow = (await root.get(`/runners/${shared.id}`)).body;
  expect(sharedNow.projects.map((p: { id: number }) => p.id)).toEqual([kept.id]);
  expect((await root.get(`/issues/${keptIssue.id}`)).status).toBe(200);
  expect((await root.get("/issues", { query: { scope: "all" } })).body.map((i: { id: number }) => i.id)).toEqual([keptIssue.id]);
});

test("a group removed for good takes its and its subgroups' runners, and its projects' issues", async () => {
  const group = (await root.post("/groups", { json: { name: "Gone", path: "gone" } })).body;
  const sub = (await root.post("/groups", { json: { name: "Sub", path: "sub", parent_id: group.id } })).body;
  const other = (await root.post("/groups", { json: { name: "Other", path: "other" } })).body;
  const project = (await root.post("/projects", { json: { name: "inner", namespace_id: sub.id } })).body;
  const issue = (await root.post(`/projects/${project.id}/issues`, { json: { title: "Inside" } })).body;
  const runner = async (group_id: number) => (await root.post("/user/runners", { json: { runner_type: "group_type", group_id } })).body.id as number;
  const [top, nested, elsewhere] = [await runner(group.id), await runner(sub.id), await runner(other.id)];

  await removeForGood("groups", group.id, "gone");

  await eventually(async () => {
    const ids = await runnerIds();
    expect(ids).not.toContain(top);
    expect(ids).not.toContain(nested);
    expect(ids).toContain(elsewhere);
    expect((await root.get(`/issues/${issue.id}`)).status).toBe(404);
  });
});

test("a group removed for good takes its and its subgroups' epics with their notes and state events; another group's stay", async () => {
  const group = (await root.post("/groups", { json: { name: "Gone", path: "gone" } })).body;
  const sub = (await root.post("/groups", { json: { name: "Sub", path: "sub", parent_id: group.id } })).body;
  const other = (await root.post("/groups", { json: { name: "Other", path: "other" } })).body;
  const epicWithConversation = async (groupId: number) => {
    const epic = (await root.post(`/groups/${groupId}/epics`, { json: { title: "Plan" } })).body;
    expect((await root.post(`/groups/${groupId}/epics/${epic.id}/notes`, { json: { body: "a remark" } })).status).toBe(201);
    expect((await root.put(`/groups/${groupId}/epics/${epic.iid}`, { json: { state_event: "close" } })).status).toBe(200);
    return epic.id as number;
  };
  const [top, nested, elsewhere] = [await epicWithConversation(group.id), await epicWithConversation(sub.id), await epicWithConversation(other.id)];
  /** Notes and state events per epic, read in the issues schema (no endpoint reads a removed group's). */
  const conversations = async () => {
    const { rows } = await app.database.db.execute(
      sql`SELECT e.id, (SELECT count(*)::int FROM issues.notes n WHERE n.noteable_type = 'Epic' AND n.noteable_id = e.id) AS notes, (SELECT count(*)::int FROM issues.resource_state_events r WHERE r.epic_id = e.id) AS events FROM unnest(${sql.param([top, nested, elsewhere])}::int[]) AS e(id) ORDER BY e.id`,
    );
    return rows;
  };
  expect(await conversations()).toEqual([top, nested, elsewhere].map((id) => ({ id, notes: 1, events: 1 })));

  await removeForGood("groups", group.id, "gone");

  await eventually(async () => expect(await conversations()).toEqual([{ id: top, notes: 0, events: 0 }, { id: nested, notes: 0, events: 0 }, { id: elsewhere, notes: 1, events: 1 }]));
  expect((await root.get(`/groups/${other.id}/epics/${elsewhere}/notes`)).body.map((n: { body: string }) => n.body)).toEqual(["a remark"]);
});

test("a group removed for good takes its export archives with it", async () => {
  const group = (await root.post("/groups", { json: { name: "Exported", path: "exported" } })).body;
  expect((await root.post(`/groups/${group.id}/export`)).status).toBe(202);
  await call(app.broker, ImportExport.worker.tick, {});
  expect((await root.get(`/groups/${group.id}/export/download`)).status).toBe(200);
  const archives = async () => (await app.database.db.execute(sql`SELECT count(*)::int AS n FROM import_export.group_exports WHERE group_id = ${group.id}`)).rows[0] as { n: number };
  expect((await archives()).n).toBe(1);

  await removeForGood("groups", group.id, "exported");

  await eventually(async () => expect((await archives()).n).toBe(0));
});
