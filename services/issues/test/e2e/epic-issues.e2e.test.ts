import { apiClient, assertStatus as ok, createGroup, createProject, eventually, watchEvents, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";
import { Issues } from "@collab/issues-contract";

/**
 * A team files issues under its epics through @gitbeaker/rest's EpicIssues and Issues, as a script
 * against GitLab Premium would: assign, list in the epic's order, reorder, move to another epic,
 * remove; the issue's `epic` and `epic_iid`, the epic_id filter, epic_id on issue writes, the system
 * notes and events. Raw HTTP checks what gitbeaker hides (statuses, error bodies).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("epic-issues");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** platform (private) with the projects api and billing/web (a subgroup's), and other/tools outside it. */
async function team() {
  const alice = await createGitbeakerUser(app, "alice");
  const group = await createGroup(root, "Platform", "platform", { visibility: "private" });
  const billing = await createGroup(root, "Billing", "billing", { parent_id: group.id, visibility: "private" });
  const other = await createGroup(root, "Other", "other", { visibility: "private" });
  ok(await root.post(`/groups/${group.id}/members`, { json: { user_id: alice.id, access_level: 30 } }), 201, "alice");
  ok(await root.post(`/groups/${other.id}/members`, { json: { user_id: alice.id, access_level: 30 } }), 201, "alice in other");
  const api = await createProject(root, { name: "api", namespace_id: group.id, visibility: "private" });
  const web = await createProject(root, { name: "web", namespace_id: billing.id, visibility: "private" });
  const tools = await createProject(root, { name: "tools", namespace_id: other.id, visibility: "private" });
  const issue = async (projectId: number, title: string, extra: Record<string, unknown> = {}) =>
    ok(await root.post(`/projects/${projectId}/issues`, { json: { title, ...extra } }), 201, title).body as { id: number; iid: number; project_id: number };
  return { alice, groupId: group.id, api, web, tools, issue };
}

const notesOf = async (projectId: number, iid: number) =>
  ((await root.get(`/projects/${projectId}/issues/${iid}/notes`, { query: { sort: "asc" } })).body as { body: string; system: boolean }[]).filter((n) => n.system).map((n) => n.body);

test("assign, list in order, reorder, move and remove issues with @gitbeaker/rest", async () => {
  const { alice, groupId, api, web, issue } = await team();
  const launch = ok(await root.post(`/groups/${groupId}/epics`, { json: { title: "Launch", due_date_is_fixed: true, due_date_fixed: "2020-01-31" } }), 201, "epic").body;
  const dark = ok(await root.post(`/groups/${groupId}/epics`, { json: { title: "Dark mode" } }), 201, "epic").body;
  const login = await issue(api.id, "Login");
  const logout = await issue(api.id, "Logout");
  const invoice = await issue(web.id, "Invoice PDF");

  const linked = (await alice.gl.EpicIssues.assign(groupId, 1, login.id)) as unknown as Record<string, any>;
  expect(linked).toMatchObject({ id: expect.any(Number), relative_position: expect.any(Number), epic: { id: launch.id, iid: 1, title: "Launch", group_id: groupId }, issue: { id: login.id, iid: 1, project_id: api.id, title: "Login" } });
  // The association embeds IssueBasic: no links, no epic of its own.
  expect(["_links", "epic", "epic_iid", "subscribed"].filter((k) => k in linked.issue)).toEqual([]);
  const second = (await alice.gl.EpicIssues.assign(groupId, 1, logout.id)) as unknown as { id: number };
  const third = (await alice.gl.EpicIssues.assign(groupId, 1, invoice.id)) as unknown as { id: number };

  // Newest first (each goes to the start), with the association's id and place.
  const order = async () => ((await alice.gl.EpicIssues.all(groupId, 1)) as unknown as { title: string; epic_issue_id: number; relative_position: number }[]).map((i) => i.title);
  const listed = (await alice.gl.EpicIssues.all(groupId, 1)) as unknown as Record<string, any>[];
  expect(listed.map((i) => [i.title, i.epic_issue_id])).toEqual([["Invoice PDF", third.id], ["Logout", second.id], ["Login", linked.id]]);
  expect(listed[0]).toMatchObject({ project_id: web.id, epic_iid: 1, epic: { iid: 1, url: "/groups/platform/-/epics/1" } });
  expect(new Set(listed.map((i) => i.relative_position)).size).toBe(3);

  // Reorder: Login right after Invoice PDF (move_before_id names the one to stand before it).
  const reordered = (await alice.gl.EpicIssues.edit(groupId, 1, linked.id, { moveBeforeId: third.id })) as unknown as { title: string }[];
  expect(reordered.map((i) => i.title)).toEqual(["Invoice PDF", "Login", "Logout"]);
  await alice.gl.EpicIssues.edit(groupId, 1, second.id, { moveAfterId: third.id });
  expect(await order()).toEqual(["Logout", "Invoice PDF", "Login"]);

  // The issue shows its epic (GitLab's EpicBaseEntity) and the deprecated epic_iid.
  const shown = (await alice.gl.Issues.show(login.iid, { projectId: api.id })) as unknown as Record<string, unknown>;
  expect(shown).toMatchObject({
    epic_iid: 1,
    epic: { id: launch.id, iid: 1, title: "Launch", url: "/groups/platform/-/epics/1", group_id: groupId, human_readable_end_date: "Jan 31, 2020", human_readable_timestamp: "<strong>Past due</strong>" },
  });
  // The epic_id filter: an id, None and Any (and negated).
  const titles = async (epicId: number | string, not?: boolean) =>
    ((await alice.gl.Issues.all({ groupId, sort: "asc", ...(not ? { not: { epicId } } : { epicId }) } as never)) as unknown as { title: string }[]).map((i) => i.title);
  const extra = await issue(api.id, "Unplanned");
  expect(await titles(launch.id)).toEqual(["Login", "Logout", "Invoice PDF"]);
  expect(await titles("None")).toEqual(["Unplanned"]);
  expect(await titles("Any")).toEqual(["Login", "Logout", "Invoice PDF"]);
  expect(await titles(launch.id, true)).toEqual(["Unplanned"]);

  // Assigning moves an issue between epics: one epic per issue.
  const moved = (await alice.gl.EpicIssues.assign(groupId, 2, logout.id)) as unknown as { id: number };
  expect(moved.id).toBe(second.id);
  expect(await order()).toEqual(["Invoice PDF", "Login"]);
  expect(((await alice.gl.EpicIssues.all(groupId, 2)) as unknown as { title: string }[]).map((i) => i.title)).toEqual(["Logout"]);

  // Removing answers the association; the issue has no epic any more.
  const removed = (await alice.gl.EpicIssues.remove(groupId, 1, linked.id)) as unknown as { id: number; issue: { id: number } };
  expect(removed).toMatchObject({ id: linked.id, issue: { id: login.id } });
  expect(await order()).toEqual(["Invoice PDF"]);
  expect(ok(await root.get(`/projects/${api.id}/issues/${login.iid}`), 200, "issue").body).toMatchObject({ epic_iid: null, epic: null });

  // Each change is a system note on the issue, the epic named from the issue's project.
  expect(await notesOf(api.id, login.iid)).toEqual(["added to epic &1", "removed from epic &1"]);
  expect(await notesOf(api.id, logout.iid)).toEqual(["added to epic &1", "changed epic to &2"]);
  expect(await notesOf(web.id, invoice.iid)).toEqual(["added to epic platform&1"]);

  // Deleting an epic or an issue takes its associations with it.
  ok(await root.delete(`/groups/${groupId}/epics/${dark.iid}`), 204, "delete epic");
  expect(ok(await root.get(`/projects/${api.id}/issues/${logout.iid}`), 200, "issue").body).toMatchObject({ epic: null });
  ok(await root.delete(`/projects/${web.id}/issues/${invoice.iid}`), 204, "delete issue");
  expect(await order()).toEqual([]);
  expect(await titles("Any")).toEqual([]);
  expect(extra.id).toBeGreaterThan(0);
});

test("refusals: an issue outside the group, twice the same, a nested id of another epic, bad neighbours", async () => {
  const { groupId, api, tools, issue } = await team();
  await root.post(`/groups/${groupId}/epics`, { json: { title: "One" } });
  await root.post(`/groups/${groupId}/epics`, { json: { title: "Two" } });
  const secret = ok(await root.post(`/groups/${groupId}/epics`, { json: { title: "Secret", confidential: true } }), 201, "epic").body;
  const mine = await issue(api.id, "Mine");
  const theirs = await issue(tools.id, "Theirs");
  const E = `/groups/${groupId}/epics`;
  const answer = async (res: Promise<{ status: number; body: any }>) => res.then((r) => [r.status, r.body]);

  expect(await answer(root.post(`${E}/1/issues/${theirs.id}`))).toEqual([404, { message: "No matching issue found. Make sure that you are adding a valid issue URL." }]);
  const testCase = await issue(api.id, "Checks", { issue_type: "test_case" });
  expect(await answer(root.post(`${E}/1/issues/${testCase.id}`))).toEqual([404, { message: "No matching issue found. Make sure that you are adding a valid issue URL." }]);
  expect(await answer(root.post(`${E}/1/issues/999999`))).toEqual([404, { message: "404 Not found" }]);
  expect(await answer(root.post(`${E}/99/issues/${mine.id}`))).toEqual([403, { message: "403 Forbidden" }]);
  expect(await answer(root.post(`${E}/${secret.iid}/issues/${mine.id}`))).toEqual([
    422,
    { message: "#1 cannot be added: Cannot assign a confidential epic to a non-confidential issue. Make the issue confidential and try again" },
  ]);
  const link = ok(await root.post(`${E}/1/issues/${mine.id}`), 201, "assign").body;
  expect(await answer(root.post(`${E}/1/issues/${mine.id}`))).toEqual([409, { message: "Issue(s) already assigned" }]);
  // The association is looked up inside the epic the path names.
  expect(await answer(root.delete(`${E}/2/issues/${link.id}`))).toEqual([404, { message: "404 Not found" }]);
  expect(await answer(root.put(`${E}/2/issues/${link.id}`, { json: { move_after_id: link.id } }))).toEqual([404, { message: "404 Not found" }]);
  expect(await answer(root.put(`${E}/1/issues/${link.id}`, { json: { move_after_id: 999999 } }))).toEqual([404, { message: "Epic issue not found for given params" }]);
  expect((await root.put(`${E}/1/issues/${link.id}`, { json: { move_after_id: "x" } })).status).toBe(400);
  expect((await root.get(`${E}/1/issues`)).body).toHaveLength(1);
});

test("issue writes set and clear the epic with epic_id or epic_iid, and announce it", async () => {
  const { alice, groupId, api, tools, issue } = await team();
  const watch = await watchEvents(app, [Issues.events.issueUpdated]);
  try {
    const launch = ok(await root.post(`/groups/${groupId}/epics`, { json: { title: "Launch" } }), 201, "epic").body;
    const secret = ok(await root.post(`/groups/${groupId}/epics`, { json: { title: "Secret", confidential: true } }), 201, "epic").body;
    const P = `/projects/${api.id}/issues`;

    const created = ok(await alice.api.post(P, { json: { title: "With epic", epic_id: launch.id } }), 201, "create").body;
    expect(created).toMatchObject({ epic_iid: 1, epic: { id: launch.id, iid: 1 } });
    // A new issue of a confidential epic is confidential.
    const hidden = ok(await alice.api.post(P, { json: { title: "Hush", epic_iid: secret.iid } }), 201, "create").body;
    expect(hidden).toMatchObject({ confidential: true, epic_iid: secret.iid });

    const plain = await issue(api.id, "Plain");
    expect(ok(await alice.api.put(`${P}/${plain.iid}`, { json: { epic_iid: 1 } }), 200, "update").body).toMatchObject({ epic: { iid: 1 } });
    const event = await eventually(() => {
      const found = watch.seen.find((s) => s.payload.id === plain.id);
      if (!found) throw new Error("no issues.issue.updated yet");
      return found.payload;
    });
    expect(event).toMatchObject({ id: plain.id, actor_id: alice.id, changes: ["epic"] });
    expect(ok(await alice.api.put(`${P}/${plain.iid}`, { json: { epic_id: 0 } }), 200, "clear").body).toMatchObject({ epic_iid: null, epic: null });
    expect(await notesOf(api.id, plain.iid)).toEqual(["added to epic &1", "removed from epic &1"]);

    const status = async (res: Promise<{ status: number; body: any }>) => res.then((r) => [r.status, r.body?.message ?? r.body?.error]);
    expect(await status(alice.api.put(`${P}/${plain.iid}`, { json: { epic_id: 999999 } }))).toEqual([404, "404 Not found"]);
    expect(await status(alice.api.put(`${P}/${plain.iid}`, { json: { epic_id: launch.id, epic_iid: 1 } }))).toEqual([400, "epic_id, epic_iid are mutually exclusive"]);
    expect(await status(alice.api.put(`${P}/${plain.iid}`, { json: { epic_id: secret.id } }))).toEqual([
      422,
      `#${plain.iid} cannot be added: Cannot assign a confidential epic to a non-confidential issue. Make the issue confidential and try again`,
    ]);
    // An epic of another group is none the project's issues may take.
    const other = ok(await root.post(`/groups/${(await root.get(`/projects/${tools.id}`)).body.namespace.id}/epics`, { json: { title: "Elsewhere" } }), 201, "epic").body;
    expect(await status(alice.api.put(`${P}/${plain.iid}`, { json: { epic_id: other.id } }))).toEqual([404, "404 Not found"]);
    expect(ok(await root.get(`${P}/${plain.iid}`), 200, "issue").body.epic).toBeNull();
  } finally {
    await watch.stop();
  }
});

test("gitbeaker reports GitLab's refusals", async () => {
  const { alice, groupId, tools, issue } = await team();
  await root.post(`/groups/${groupId}/epics`, { json: { title: "One" } });
  const theirs = await issue(tools.id, "Theirs");
  expect(await failureStatus(alice.gl.EpicIssues.assign(groupId, 1, theirs.id))).toBe(404);
  expect(await failureStatus(alice.gl.EpicIssues.remove(groupId, 1, 12345))).toBe(404);
});

test("a moved issue takes its place in the epic along, a clone joins the epic, when the epic may hold the new project", async () => {
  const { alice, groupId, api, web, tools, issue } = await team();
  ok(await root.post(`/groups/${groupId}/epics`, { json: { title: "Launch" } }), 201, "epic");
  const [stays, travels] = [await issue(api.id, "Stays"), await issue(api.id, "Travels")];
  const link = ok(await root.post(`/groups/${groupId}/epics/1/issues/${travels.id}`), 201, "link").body;
  ok(await root.post(`/groups/${groupId}/epics/1/issues/${stays.id}`), 201, "link");

  const moved = ok(await alice.api.post(`/projects/${api.id}/issues/${travels.iid}/move`, { json: { to_project_id: web.id } }), 201, "move").body;
  expect(moved).toMatchObject({ project_id: web.id, epic_iid: 1 });
  const listed = (await root.get(`/groups/${groupId}/epics/1/issues`)).body as { id: number; epic_issue_id: number }[];
  expect(listed.map((i) => [i.id, i.epic_issue_id])).toContainEqual([moved.id, link.id]);
  expect(ok(await root.get(`/projects/${api.id}/issues/${travels.iid}`), 200, "original").body).toMatchObject({ state: "closed", epic: null });

  // A clone joins its original's epic, with the note and event of any assignment.
  const clone = ok(await alice.api.post(`/projects/${web.id}/issues/${moved.iid}/clone`, { json: { to_project_id: api.id } }), 201, "clone").body;
  expect(clone).toMatchObject({ project_id: api.id, epic_iid: 1 });
  expect(await notesOf(api.id, clone.iid)).toEqual(expect.arrayContaining(["added to epic &1"]));
  expect(ok(await root.get(`/projects/${web.id}/issues/${moved.iid}`), 200, "cloned original").body).toMatchObject({ state: "opened", epic_iid: 1 });

  // Out of the epic's group the association stays with the (closed) original.
  const away = ok(await alice.api.post(`/projects/${api.id}/issues/${stays.iid}/move`, { json: { to_project_id: tools.id } }), 201, "move away").body;
  expect(away.epic).toBeNull();
  expect(ok(await root.get(`/projects/${api.id}/issues/${stays.iid}`), 200, "original").body).toMatchObject({ state: "closed", epic_iid: 1 });
});
