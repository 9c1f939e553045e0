import { apiClient, assertStatus as ok, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * A team plans a release with epics through the real @gitbeaker/rest client, as a script against
 * GitLab Premium would: group → epics with labels and dates → filtered lists → edit, close, reopen
 * → a child epic → delete. Raw HTTP checks what gitbeaker hides (statuses, error bodies).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("epics-gitbeaker");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

async function team() {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const group = ok(await root.post("/groups", { json: { name: "Platform", path: "platform", visibility: "private" } }), 201, "group").body;
  ok(await root.post(`/groups/${group.id}/members`, { json: { user_id: alice.id, access_level: 50 } }), 201, "alice");
  ok(await root.post(`/groups/${group.id}/members`, { json: { user_id: bob.id, access_level: 20 } }), 201, "bob");
  return { alice, bob, groupId: group.id as number, groupPath: group.full_path as string };
}

test("an epic's life with @gitbeaker/rest: create, list, show, edit, close, reopen, delete", async () => {
  const { alice, bob, groupId, groupPath } = await team();

  const launch = await alice.gl.Epics.create(groupId, "Launch billing v2", {
    description: "Everything for v2",
    labels: "roadmap,billing",
    start_date_is_fixed: true,
    start_date_fixed: "2026-01-05",
    due_date_is_fixed: true,
    due_date_fixed: "2026-03-31",
  });
  expect(launch).toMatchObject({
    iid: 1,
    group_id: groupId,
    title: "Launch billing v2",
    description: "Everything for v2",
    state: "opened",
    confidential: false,
    labels: ["billing", "roadmap"],
    author: { username: "alice" },
    start_date: "2026-01-05",
    start_date_is_fixed: true,
    due_date: "2026-03-31",
    end_date: "2026-03-31",
    parent_id: null,
    color: "#1068bf",
    text_color: "#FFFFFF",
    references: { short: "&1", relative: "&1", full: `${groupPath}&1` },
    web_url: `http://collab.test/groups/${groupPath}/-/epics/1`,
    _links: { self: `http://collab.test/api/v4/groups/${groupId}/epics/1`, epic_issues: `http://collab.test/api/v4/groups/${groupId}/epics/1/issues`, parent: null },
  });
  // Unknown label names became group labels.
  const labels = ok(await root.get(`/groups/${groupId}/labels`), 200, "labels").body as { name: string }[];
  expect(labels.map((l) => l.name).sort()).toEqual(["billing", "roadmap"]);

  const invoices = await bob.gl.Epics.create(groupId, "Invoices as PDF", { labels: "billing", parent_id: launch.id });
  expect(invoices).toMatchObject({ iid: 2, parent_id: launch.id, parent_iid: 1, author: { username: "bob" }, start_date: null, due_date: null });
  expect(invoices._links).toMatchObject({ parent: `http://collab.test/api/v4/groups/${groupId}/epics/1` });
  await alice.gl.Epics.create(groupId, "Dark mode", { labels: "ui" });

  // Lists: newest first, filters by label, author, search, state; order by title.
  const titles = (epics: { title: string }[]) => epics.map((e) => e.title);
  expect(titles(await bob.gl.Epics.all(groupId))).toEqual(["Dark mode", "Invoices as PDF", "Launch billing v2"]);
  expect(titles(await bob.gl.Epics.all(groupId, { labels: "billing" }))).toEqual(["Invoices as PDF", "Launch billing v2"]);
  expect(titles(await bob.gl.Epics.all(groupId, { labels: "billing,roadmap" }))).toEqual(["Launch billing v2"]);
  expect(titles(await bob.gl.Epics.all(groupId, { authorUsername: "bob" }))).toEqual(["Invoices as PDF"]);
  expect(titles(await bob.gl.Epics.all(groupId, { authorId: alice.id, orderBy: "title", sort: "asc" }))).toEqual(["Dark mode", "Launch billing v2"]);
  expect(titles(await bob.gl.Epics.all(groupId, { search: "PDF" }))).toEqual(["Invoices as PDF"]);

  // Edit: title, labels added and removed, then close and reopen.
  const edited = await bob.gl.Epics.edit(groupId, 1, { title: "Launch billing v2.0", add_labels: "q1", remove_labels: "roadmap" });
  expect(edited).toMatchObject({ title: "Launch billing v2.0", labels: ["billing", "q1"], state: "opened" });
  const closed = await bob.gl.Epics.edit(groupId, 1, { state_event: "close" });
  expect(closed.state).toBe("closed");
  expect(closed.closed_at).toEqual(expect.any(String));
  expect(titles(await bob.gl.Epics.all(groupId, { state: "closed" }))).toEqual(["Launch billing v2.0"]);
  expect(titles(await bob.gl.Epics.all(groupId, { state: "opened" }))).toEqual(["Dark mode", "Invoices as PDF"]);
  const reopened = await bob.gl.Epics.edit(groupId, 1, { state_event: "reopen" });
  expect(reopened).toMatchObject({ state: "opened", closed_at: null });

  const shown = await alice.gl.Epics.show(groupId, 1);
  expect(shown).toMatchObject({ iid: 1, title: "Launch billing v2.0", subscribed: true });
  expect((await bob.gl.Epics.show(groupId, 1)).subscribed).toBe(false);

  // Deleting is for Owners; the child loses its parent.
  expect(await failureStatus(bob.gl.Epics.remove(groupId, 1))).toBe(403);
  await alice.gl.Epics.remove(groupId, 1);
  expect(await failureStatus(alice.gl.Epics.show(groupId, 1))).toBe(403);
  expect(await bob.gl.Epics.show(groupId, 2)).toMatchObject({ parent_id: null, parent_iid: null });
  // iids are never reused.
  expect((await alice.gl.Epics.create(groupId, "Next")).iid).toBe(4);
});

test("iids count per group; an epic is only found under its own group", async () => {
  const { alice, groupId } = await team();
  const other = ok(await root.post("/groups", { json: { name: "Mobile", path: "mobile", visibility: "private" } }), 201, "group").body;
  ok(await root.post(`/groups/${other.id}/members`, { json: { user_id: alice.id, access_level: 50 } }), 201, "alice");
  await alice.gl.Epics.create(groupId, "Platform one");
  await alice.gl.Epics.create(groupId, "Platform two");
  expect((await alice.gl.Epics.create(other.id, "Mobile one")).iid).toBe(1);

  // Iid 2 is the Platform group's; under Mobile it is no epic (GitLab's authorize! on nothing: 403).
  const crossed = await alice.api.get(`/groups/${other.id}/epics/2`);
  expect([crossed.status, crossed.body]).toEqual([403, { message: "403 Forbidden" }]);
  expect((await alice.api.put(`/groups/${other.id}/epics/2`, { json: { title: "Hijacked" } })).status).toBe(403);
  expect((await alice.api.get(`/groups/${groupId}/epics/2`)).body.title).toBe("Platform two");
  // A parent from another hierarchy is ignored, as GitLab ignores a parent it cannot find.
  const platformTwo = (await alice.api.get(`/groups/${groupId}/epics/2`)).body;
  expect((await alice.gl.Epics.create(other.id, "Mobile two", { parent_id: platformTwo.id })).parent_id).toBeNull();
});

test("bad input is a 400 with GitLab's messages and writes nothing", async () => {
  const { alice, groupId } = await team();
  const P = `/groups/${groupId}/epics`;
  expect(await alice.api.post(P, { json: {} }).then((r) => [r.status, r.body])).toEqual([400, { error: "title is missing" }]);
  expect(await alice.api.post(P, { json: { title: "  " } }).then((r) => [r.status, r.body])).toEqual([400, { message: { title: ["can't be blank"] } }]);
  expect(await alice.api.post(P, { json: { title: "x", color: "nope" } }).then((r) => [r.status, r.body])).toEqual([400, { message: { color: ["must be a valid color code"] } }]);
  expect((await alice.api.post(P, { json: { title: "x", start_date_fixed: "2026-02-30" } })).status).toBe(400);
  expect(ok(await alice.api.get(P), 200, "list").body).toEqual([]);

  ok(await alice.api.post(P, { json: { title: "Kept" } }), 201, "epic");
  const empty = await alice.api.put(`${P}/1`, { json: {} });
  expect(empty.status).toBe(400);
  expect(empty.body.error).toMatch(/^add_labels, .*, color are missing, at least one parameter must be provided$/);
  expect((await alice.api.put(`${P}/1`, { json: { state_event: "archive" } })).body).toEqual({ error: "state_event does not have a valid value" });
  expect((await alice.api.get(`${P}/1`)).body.title).toBe("Kept");
  // A named colour is kept as its hex code; a light one gets dark text.
  expect(ok(await alice.api.put(`${P}/1`, { json: { color: "yellow" } }), 200, "colour").body).toMatchObject({ color: "#FFFF00", text_color: "#1F1E24" });
});

test("created_at and updated_at are kept from owners only, as on issues", async () => {
  const { alice, bob, groupId } = await team();
  const P = `/groups/${groupId}/epics`;
  const past = "2020-05-06T07:08:09.000Z";
  expect(ok(await alice.api.post(P, { json: { title: "Imported", created_at: past } }), 201, "owner's").body.created_at).toBe(past);
  expect(ok(await bob.api.post(P, { json: { title: "Fresh", created_at: past } }), 201, "reporter's").body.created_at).not.toBe(past);
  expect(ok(await alice.api.put(`${P}/1`, { json: { updated_at: past } }), 200, "owner's edit").body.updated_at).toBe(past);
  expect(ok(await bob.api.put(`${P}/2`, { json: { updated_at: past } }), 200, "reporter's edit").body.updated_at).not.toBe(past);
});

test("an epic cannot become its own ancestor's child", async () => {
  const { alice, groupId } = await team();
  const top = await alice.gl.Epics.create(groupId, "Top");
  const middle = await alice.gl.Epics.create(groupId, "Middle", { parent_id: top.id });
  await alice.gl.Epics.create(groupId, "Bottom", { parent_id: middle.id });
  const bottom = await alice.gl.Epics.show(groupId, 3);
  // Top under Bottom would be a cycle: the parent is left as it was.
  expect((await alice.gl.Epics.edit(groupId, top.iid, { parent_id: bottom.id })).parent_id).toBeNull();
  expect((await alice.gl.Epics.edit(groupId, bottom.iid, { parent_id: top.id })).parent_iid).toBe(top.iid);
});
