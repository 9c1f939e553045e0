import { Gitlab } from "@gitbeaker/rest";
import { addMember, apiClient, createGroup, createProject, eventually, watchEvents, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";
import { call } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";

// The purge timer stays off in the embedded app: tests run passes with namespaces.deletions.purgeDue.
process.env.DELETION_PURGE_INTERVAL_MS ??= "0";

/**
 * Adjourned (delayed) deletion of groups and projects, GitLab's Premium behaviour and this
 * instance's default tier: DELETE marks (202, `marked_for_deletion_on`), POST …/restore unmarks,
 * `permanently_remove` with the confirming `full_path` removes a marked one at once, and the purge
 * removes what was marked `deletion_adjourned_period` days ago. The Free tier (immediate deletion)
 * is in adjourned-deletion-free-tier.embedded.e2e.test.ts.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("adjourned-deletion");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const createUser = (username: string) => createGitbeakerUser(app, username);
const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const purge = (now?: Date) => call(app.broker, Namespaces.deletions.purgeDue, now ? { now: now.toISOString() } : {});
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000);

describe("groups", () => {
  test("DELETE marks the group (202); it stays readable and listed; a second DELETE is refused; restore unmarks it", async () => {
    const alice = await createUser("alice");
    const group = await createGroup(alice.api, "Platform", "platform");
    await createProject(alice.api, { name: "Api", namespace_id: group.id });
    expect((await alice.api.get(`/groups/${group.id}`)).body.marked_for_deletion_on).toBeNull();

    const res = await alice.api.delete(`/groups/${group.id}`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: "202 Accepted" });

    const shown = await alice.api.get(`/groups/${group.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: group.id, full_path: "platform", marked_for_deletion_on: day() });
    expect(shown.body.projects.map((p: { name: string }) => p.name)).toEqual(["Api"]);
    const listed = await alice.api.get("/groups");
    expect(listed.body.map((g: { full_path: string; marked_for_deletion_on: string }) => [g.full_path, g.marked_for_deletion_on])).toEqual([["platform", day()]]);

    const again = await alice.api.delete(`/groups/${group.id}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: "Group has been already marked for deletion" });

    const restored = await alice.api.post(`/groups/${group.id}/restore`);
    expect(restored.status).toBe(201);
    expect(restored.body).toMatchObject({ id: group.id, full_path: "platform", marked_for_deletion_on: null });
    expect(restored.body.projects.map((p: { name: string }) => p.name)).toEqual(["Api"]);
    expect((await alice.api.get(`/groups/${group.id}`)).body.marked_for_deletion_on).toBeNull();

    const notMarked = await alice.api.post(`/groups/${group.id}/restore`);
    expect(notMarked.status).toBe(400);
    expect(notMarked.body).toEqual({ message: "Group has not been marked for deletion" });
  });

  test("permanently_remove needs a marked group and its exact full_path, then removes it with everything below", async () => {
    const platform = await createGroup(root, "Platform", "platform");
    const backend = await createGroup(root, "Backend", "backend", { parent_id: platform.id });
    const project = await createProject(root, { name: "Api", namespace_id: backend.id });

    const unmarked = await root.delete(`/groups/${backend.id}`, { query: { permanently_remove: true, full_path: "platform/backend" } });
    expect(unmarked.status).toBe(400);
    expect(unmarked.body).toEqual({ message: "Group must be marked for deletion first." });

    expect((await root.delete(`/groups/${backend.id}`)).status).toBe(202);
    const wrongPath = "`full_path` is incorrect. You must enter the complete path for the group.";
    for (const query of [{ permanently_remove: true }, { permanently_remove: true, full_path: "backend" }, { permanently_remove: true, full_path: "platform/backend-wrong" }]) {
      const res = await root.delete(`/groups/${backend.id}`, { query });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: wrongPath });
    }
    const invalid = await root.delete(`/groups/${backend.id}`, { query: { permanently_remove: "maybe" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "permanently_remove is invalid" });

    // The JSON body works as well as the query string (what @gitbeaker/rest sends).
    const res = await root.delete(`/groups/${backend.id}`, { json: { permanently_remove: true, full_path: "platform/backend" } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: "202 Accepted" });
    expect((await root.get(`/groups/${backend.id}`)).body).toEqual({ message: "404 Group Not Found" });
    expect((await root.get(`/projects/${project.id}`)).body).toEqual({ message: "404 Project Not Found" });
    expect((await root.get(`/groups/${platform.id}`)).body.marked_for_deletion_on).toBeNull();
  });

  test("GET /groups?marked_for_deletion_on= filters by the day of the mark", async () => {
    const [a, b] = [await createGroup(root, "A", "a"), await createGroup(root, "B", "b")];
    await createGroup(root, "C", "c");
    await root.delete(`/groups/${a.id}`);
    await root.delete(`/groups/${b.id}`);
    const paths = (body: { full_path: string }[]) => body.map((g) => g.full_path).sort();
    expect(paths((await root.get("/groups", { query: { marked_for_deletion_on: day() } })).body)).toEqual(["a", "b"]);
    expect((await root.get("/groups", { query: { marked_for_deletion_on: day(-1) } })).body).toEqual([]);
    expect(paths((await root.get("/groups")).body)).toEqual(["a", "b", "c"]);
    expect(await root.get("/groups", { query: { marked_for_deletion_on: "yesterday" } })).toMatchObject({ status: 400, body: { error: "marked_for_deletion_on is invalid" } });
  });

  test("only Owners and administrators mark or restore: Maintainers 403, outsiders 404", async () => {
    const [maint, outsider, owner] = [await createUser("maint"), await createUser("outsider"), await createUser("owner")];
    const group = await createGroup(root, "Platform", "platform");
    await addMember(app, "groups", group.id, maint.id, 40);
    await addMember(app, "groups", group.id, owner.id, 50);

    expect(await maint.api.delete(`/groups/${group.id}`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await outsider.api.delete(`/groups/${group.id}`)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await root.get(`/groups/${group.id}`)).body.marked_for_deletion_on).toBeNull();

    expect((await owner.api.delete(`/groups/${group.id}`)).status).toBe(202);
    expect(await maint.api.post(`/groups/${group.id}/restore`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await outsider.api.post(`/groups/${group.id}/restore`)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await maint.api.delete(`/groups/${group.id}`, { query: { permanently_remove: true, full_path: "platform" } })).toMatchObject({ status: 403 });
    expect(await apiClient(app.url).post(`/groups/${group.id}/restore`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await root.post(`/groups/${group.id}/restore`)).status).toBe(201);
  });

  test("@gitbeaker/rest marks, restores and permanently removes a group", async () => {
    const alice = await createUser("alice");
    const group = await alice.gl.Groups.create("Platform", "platform");
    await alice.gl.Groups.remove(group.id as number);
    expect((await alice.gl.Groups.show(group.id as number)).marked_for_deletion_on).toBe(day());
    await alice.gl.Groups.restore(group.id as number);
    expect((await alice.gl.Groups.show(group.id as number)).marked_for_deletion_on).toBeNull();
    await alice.gl.Groups.remove(group.id as number);
    await alice.gl.Groups.remove(group.id as number, { permanentlyRemove: true, fullPath: "platform" });
    expect((await alice.api.get(`/groups/${group.id}`)).status).toBe(404);
  });
});

describe("projects", () => {
  test("DELETE marks the project (202) with marked_for_deletion_at/on; a second DELETE is refused; restore unmarks it", async () => {
    const alice = await createUser("alice");
    const group = await createGroup(alice.api, "Platform", "platform");
    const project = await createProject(alice.api, { name: "Api", namespace_id: group.id });
    expect((await alice.api.get(`/projects/${project.id}`)).body).toMatchObject({ marked_for_deletion_at: null, marked_for_deletion_on: null });

    const res = await alice.api.delete(`/projects/${project.id}`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: "202 Accepted" });

    const shown = await alice.api.get(`/projects/${project.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: project.id, path_with_namespace: "platform/api", marked_for_deletion_at: day(), marked_for_deletion_on: day() });
    expect((await alice.api.get("/projects", { query: { owned: true } })).body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect((await alice.api.get(`/groups/${group.id}/projects`)).body[0]).toMatchObject({ id: project.id, marked_for_deletion_on: day() });
    expect((await root.get("/projects", { query: { marked_for_deletion_on: day() } })).body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect((await root.get("/projects", { query: { marked_for_deletion_on: day(1) } })).body).toEqual([]);

    const again = await alice.api.delete(`/projects/${project.id}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: "Project has been already marked for deletion" });

    const restored = await alice.api.post(`/projects/${project.id}/restore`);
    expect(restored.status).toBe(201);
    expect(restored.body).toMatchObject({ id: project.id, path_with_namespace: "platform/api", marked_for_deletion_at: null, marked_for_deletion_on: null });

    const notMarked = await alice.api.post(`/projects/${project.id}/restore`);
    expect(notMarked.status).toBe(400);
    expect(notMarked.body).toEqual({ message: "Project has not been marked for deletion" });
  });

  test("permanently_remove needs a marked project and its exact full_path", async () => {
    const alice = await createUser("alice");
    const project = await createProject(alice.api, { name: "Mine" });

    const unmarked = await alice.api.delete(`/projects/${project.id}`, { query: { permanently_remove: true, full_path: "alice/mine" } });
    expect(unmarked.status).toBe(400);
    expect(unmarked.body).toEqual({ message: "Project must be marked for deletion first." });

    expect((await alice.api.delete(`/projects/${project.id}`)).status).toBe(202);
    for (const query of [{ permanently_remove: true }, { permanently_remove: true, full_path: "mine" }, { permanently_remove: true, full_path: "alice/mine-wrong-path" }]) {
      const res = await alice.api.delete(`/projects/${project.id}`, { query });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "`full_path` is incorrect. You must enter the complete path for the project." });
    }
    const res = await alice.api.delete(`/projects/${project.id}`, { query: { permanently_remove: true, full_path: "alice/mine" } });
    expect(res.status).toBe(202);
    expect((await alice.api.get(`/projects/${project.id}`)).body).toEqual({ message: "404 Project Not Found" });
  });

  test("only Owners and administrators: Maintainers 403, users who cannot see the project 404", async () => {
    const [owner, maint, bob] = [await createUser("owner"), await createUser("maint"), await createUser("bob")];
    const group = await createGroup(root, "Platform", "platform");
    await addMember(app, "groups", group.id, owner.id, 50);
    const project = await createProject(root, { name: "Api", namespace_id: group.id });
    await addMember(app, "projects", project.id, maint.id, 40);

    expect(await maint.api.delete(`/projects/${project.id}`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await bob.api.delete(`/projects/${project.id}`)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await owner.api.delete(`/projects/${project.id}`)).status).toBe(202);
    expect(await maint.api.post(`/projects/${project.id}/restore`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await bob.api.post(`/projects/${project.id}/restore`)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await root.post(`/projects/${project.id}/restore`)).status).toBe(201);

    const gl = new Gitlab({ host: app.url, token: app.rootToken });
    await gl.Projects.remove(project.id);
    await gl.Projects.restore(project.id);
    expect((await gl.Projects.show(project.id)).marked_for_deletion_on).toBeNull();
  });
});

describe("the purge", () => {
  test("removes groups (with their subgroups and projects) and projects once deletion_adjourned_period days have passed", async () => {
    const platform = await createGroup(root, "Platform", "platform");
    const backend = await createGroup(root, "Backend", "backend", { parent_id: platform.id });
    const inGroup = await createProject(root, { name: "Api", namespace_id: backend.id });
    const keep = await createGroup(root, "Keep", "keep");
    const doomed = await createProject(root, { name: "Doomed", namespace_id: keep.id });
    const survivor = await createProject(root, { name: "Survivor", namespace_id: keep.id });
    const restored = await createProject(root, { name: "Restored", namespace_id: keep.id });

    const watch = await watchEvents(app, [Namespaces.events.projectDeleted]);

    expect((await root.put("/application/settings", { json: { deletion_adjourned_period: 1 } })).status).toBe(200);
    for (const path of [`/groups/${platform.id}`, `/projects/${doomed.id}`, `/projects/${restored.id}`]) expect((await root.delete(path)).status).toBe(202);
    expect((await root.post(`/projects/${restored.id}/restore`)).status).toBe(201);

    // Marked today with a period of 1 day: not due yet today.
    expect(await purge()).toEqual({ group_ids: [], project_ids: [] });
    expect((await root.get(`/groups/${platform.id}`)).status).toBe(200);

    const result = await purge(inDays(2));
    expect(result.group_ids).toEqual([platform.id]);
    expect([...result.project_ids].sort((a, b) => a - b)).toEqual([inGroup.id, doomed.id].sort((a, b) => a - b));
    for (const id of [platform.id, backend.id]) expect((await root.get(`/groups/${id}`)).body).toEqual({ message: "404 Group Not Found" });
    for (const id of [inGroup.id, doomed.id]) expect((await root.get(`/projects/${id}`)).body).toEqual({ message: "404 Project Not Found" });
    for (const id of [survivor.id, restored.id]) expect((await root.get(`/projects/${id}`)).status).toBe(200);
    expect((await root.get(`/groups/${keep.id}`)).status).toBe(200);
    await eventually(() => expect(watch.seen).toHaveLength(2));
    await watch.stop();
    expect(watch.seen.map((e) => e.payload.projectId).sort((a, b) => a - b)).toEqual([inGroup.id, doomed.id].sort((a, b) => a - b));

    // Nothing left to do; the path is free again.
    expect(await purge(inDays(2))).toEqual({ group_ids: [], project_ids: [] });
    expect((await root.post("/groups", { json: { name: "Platform", path: "platform" } })).status).toBe(201);
  });

  test("the default period is 30 days", async () => {
    const group = await createGroup(root, "Platform", "platform");
    const project = await createProject(root, { name: "Api" });
    await root.delete(`/groups/${group.id}`);
    await root.delete(`/projects/${project.id}`);
    expect(await purge(inDays(29))).toEqual({ group_ids: [], project_ids: [] });
    expect(await purge(inDays(30))).toEqual({ group_ids: [group.id], project_ids: [project.id] });
  });

  test("a marked subgroup inside a marked group is removed once, with its parent", async () => {
    const platform = await createGroup(root, "Platform", "platform");
    const backend = await createGroup(root, "Backend", "backend", { parent_id: platform.id });
    const project = await createProject(root, { name: "Api", namespace_id: backend.id });
    await root.delete(`/projects/${project.id}`);
    await root.delete(`/groups/${backend.id}`);
    await root.delete(`/groups/${platform.id}`);
    expect(await purge(inDays(31))).toEqual({ group_ids: [platform.id], project_ids: [project.id] });
  });
});
