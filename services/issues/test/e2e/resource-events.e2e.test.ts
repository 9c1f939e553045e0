import { addMember, apiClient, assertStatus as ok, createGroup, eventually, createProject, createUser, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Resource label, milestone, weight and iteration events through the gateway: with @gitbeaker/rest
 * (IssueLabelEvents, IssueMilestoneEvents, IssueIterationEvents, MergeRequestLabelEvents,
 * MergeRequestMilestoneEvents, EpicLabelEvents), one event per actual change, another resource's
 * event id 404, validation, and who may read them on a private and a public project.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("resource-events");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

test("an issue's label, milestone, weight and iteration events with @gitbeaker/rest", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const project = await alice.gl.Projects.create({ name: "billing", visibility: "private" });
  const bug = await alice.gl.ProjectLabels.create(project.id, "bug", "#d9534f", { description: "Something is broken" });
  const ux = await alice.gl.ProjectLabels.create(project.id, "ux", "#5843ad");
  const v1 = await alice.gl.ProjectMilestones.create(project.id, "v1");

  const issue = await alice.gl.Issues.create(project.id, "Invoices are rounded wrongly", { labels: "bug", milestoneId: v1.id, weight: 3 });
  await alice.gl.Issues.edit(project.id, issue.iid, { addLabels: "ux,bug", removeLabels: "bug" });
  await alice.gl.Issues.edit(project.id, issue.iid, { addLabels: "ux" }); // already there: nothing recorded
  await alice.gl.Issues.edit(project.id, issue.iid, { milestoneId: 0, weight: 5 });

  const labelEvents = await alice.gl.IssueLabelEvents.all(project.id, issue.iid);
  const who = expect.objectContaining({ id: alice.id, username: "alice", name: "Alice", state: "active" });
  expect(labelEvents).toEqual([
    {
      id: expect.any(Number),
      user: who,
      created_at: expect.stringMatching(ISO),
      resource_type: "Issue",
      resource_id: issue.id,
      label: { id: bug.id, name: "bug", color: "#d9534f", text_color: "#FFFFFF", description: "Something is broken", description_html: expect.any(String) },
      action: "add",
    },
    expect.objectContaining({ label: expect.objectContaining({ id: ux.id, name: "ux" }), action: "add" }),
    expect.objectContaining({ label: expect.objectContaining({ id: bug.id, name: "bug" }), action: "remove" }),
  ]);
  expect(await alice.gl.IssueLabelEvents.show(project.id, issue.iid, labelEvents[1].id)).toEqual(labelEvents[1]);

  const milestoneEvents = await alice.gl.IssueMilestoneEvents.all(project.id, issue.iid);
  expect(milestoneEvents).toEqual([
    {
      id: expect.any(Number),
      user: who,
      created_at: expect.stringMatching(ISO),
      resource_type: "Issue",
      resource_id: issue.id,
      milestone: expect.objectContaining({ id: v1.id, iid: v1.iid, project_id: project.id, title: "v1", state: "active" }),
      action: "add",
      state: "opened",
    },
    expect.objectContaining({ milestone: expect.objectContaining({ id: v1.id }), action: "remove", state: "opened" }),
  ]);
  expect(await alice.gl.IssueMilestoneEvents.show(project.id, issue.iid, milestoneEvents[1].id)).toEqual(milestoneEvents[1]);

  // gitbeaker's IssueWeightEvents calls …/resource_state_events (a bug in the client): the route is read raw.
  const weights = ok(await alice.api.get(`/projects/${project.id}/issues/${issue.iid}/resource_weight_events`), 200, "weight events");
  expect(weights.body).toEqual([
    { id: expect.any(Number), user: who, created_at: expect.stringMatching(ISO), issue_id: issue.id, weight: 3 },
    { id: expect.any(Number), user: who, created_at: expect.stringMatching(ISO), issue_id: issue.id, weight: 5 },
  ]);
  const oneWeight = ok(await alice.api.get(`/projects/${project.id}/issues/${issue.iid}/resource_weight_events/${weights.body[1].id}`), 200, "weight event");
  expect(oneWeight.body).toEqual(weights.body[1]);

  // No iterations exist here: none can be set, so none was recorded (what GitLab answers without iterations).
  expect(await alice.gl.IssueIterationEvents.all(project.id, issue.iid)).toEqual([]);

  // The labels' and milestone's system notes are not notes: GitLab's notes API hides them as resource events.
  const notes = await alice.gl.IssueNotes.all(project.id, issue.iid);
  expect(notes.map((n) => n.body).filter((b) => /label|milestone|weight/.test(b))).toEqual([]);
});

test("one event or 404: another issue's event, unknown and invalid ids, pagination", async () => {
  const project = await createProject(root, { name: "billing", visibility: "private" });
  const P = `/projects/${project.id}`;
  ok(await root.post(`${P}/labels`, { json: { name: "bug", color: "#d9534f" } }), 201, "label");
  const milestone = ok(await root.post(`${P}/milestones`, { json: { title: "v1" } }), 201, "milestone").body;
  const a = ok(await root.post(`${P}/issues`, { json: { title: "A", labels: "bug", milestone_id: milestone.id, weight: 1 } }), 201, "a").body;
  const b = ok(await root.post(`${P}/issues`, { json: { title: "B" } }), 201, "b").body;
  for (const family of ["label", "milestone", "weight"]) {
    const [event] = ok(await root.get(`${P}/issues/${a.iid}/resource_${family}_events`), 200, family).body;
    expect(event).toBeDefined();
    expect(ok(await root.get(`${P}/issues/${b.iid}/resource_${family}_events`), 200, family).body).toEqual([]);
    for (const path of [`${P}/issues/${b.iid}/resource_${family}_events/${event.id}`, `${P}/issues/${a.iid}/resource_${family}_events/${event.id + 1000}`]) {
      const res = await root.get(path);
      expect([res.status, res.body]).toEqual([404, { message: "404 Not found" }]);
    }
    const invalid = await root.get(`${P}/issues/${a.iid}/resource_${family}_events/abc`);
    expect([invalid.status, invalid.body]).toEqual([400, { error: `resource_${family}_event_id is invalid` }]);
    const missingIssue = await root.get(`${P}/issues/999/resource_${family}_events`);
    expect([missingIssue.status, missingIssue.body]).toEqual([404, { message: "404 Not found" }]);
  }
  const badPage = await root.get(`${P}/issues/${a.iid}/resource_label_events`, { query: { per_page: "many" } });
  expect([badPage.status, badPage.body]).toEqual([400, { error: "per_page is invalid" }]);

  for (const name of ["c", "d", "e"]) ok(await root.put(`${P}/issues/${b.iid}`, { json: { add_labels: name } }), 200, name);
  const page1 = ok(await root.get(`${P}/issues/${b.iid}/resource_label_events`, { query: { per_page: 2 } }), 200, "page 1");
  expect(page1.body.map((e: { label: { name: string } }) => e.label.name)).toEqual(["c", "d"]);
  expect([page1.headers.get("x-total"), page1.headers.get("x-total-pages"), page1.headers.get("x-next-page")]).toEqual(["3", "2", "2"]);
  const page2 = ok(await root.get(`${P}/issues/${b.iid}/resource_label_events`, { query: { per_page: 2, page: 2 } }), 200, "page 2");
  expect(page2.body.map((e: { label: { name: string } }) => e.label.name)).toEqual(["e"]);
});

test("merge request label and milestone events with @gitbeaker/rest; milestone changes leave no system note", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const project = await alice.gl.Projects.create({ name: "api", visibility: "private", initializeWithReadme: true });
  await alice.gl.Branches.create(project.id, "feature", "main");
  const v1 = await alice.gl.ProjectMilestones.create(project.id, "v1");
  const mr = await alice.gl.MergeRequests.create(project.id, "feature", "main", "Add feature", { labels: "api,backend", milestoneId: v1.id });
  await alice.gl.MergeRequests.edit(project.id, mr.iid, { removeLabels: "api", addLabels: "backend" });
  await alice.gl.MergeRequests.edit(project.id, mr.iid, { milestoneId: 0 });

  const labels = await alice.gl.MergeRequestLabelEvents.all(project.id, mr.iid);
  expect(labels.map((e) => [e.action, e.label.name, e.resource_type, e.resource_id])).toEqual([
    ["add", "api", "MergeRequest", mr.id],
    ["add", "backend", "MergeRequest", mr.id],
    ["remove", "api", "MergeRequest", mr.id],
  ]);
  expect(await alice.gl.MergeRequestLabelEvents.show(project.id, mr.iid, labels[2].id)).toEqual(labels[2]);
  const milestones = await alice.gl.MergeRequestMilestoneEvents.all(project.id, mr.iid);
  expect(milestones.map((e) => [e.action, e.milestone.title, e.state, e.resource_type])).toEqual([
    ["add", "v1", "opened", "MergeRequest"],
    ["remove", "v1", "opened", "MergeRequest"],
  ]);
  expect(await failureStatus(alice.gl.MergeRequestMilestoneEvents.show(project.id, mr.iid, milestones[1].id + 1000))).toBe(404);
  const notes = await alice.gl.MergeRequestNotes.all(project.id, mr.iid);
  expect(notes.filter((n) => /milestone|label/.test(n.body))).toEqual([]);
  // Merge requests have no weight or iteration events.
  expect((await alice.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/resource_weight_events`)).status).toBe(404);
});

test("an epic's label events with @gitbeaker/rest, the epic named by its id", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const other = await alice.gl.Groups.create("Design", "design", { visibility: "private" });
  const group = await alice.gl.Groups.create("Platform", "platform", { visibility: "private" });
  // Another group's epic first, so this one's id and iid differ.
  await alice.gl.Epics.create(other.id, "Another group's epic");
  await alice.gl.Epics.create(group.id, "First epic", { labels: "roadmap" });
  const epic = await alice.gl.Epics.create(group.id, "Launch billing v2", { labels: "roadmap" });
  expect([epic.iid, epic.id]).toEqual([2, 3]);
  await alice.gl.Epics.edit(group.id, epic.iid, { addLabels: "q3", removeLabels: "roadmap" });
  const events = await alice.gl.EpicLabelEvents.all(group.id, epic.id);
  expect(events.map((e) => [e.action, e.label.name, e.resource_type, e.resource_id])).toEqual([
    ["add", "roadmap", "Epic", epic.id],
    ["add", "q3", "Epic", epic.id],
    ["remove", "roadmap", "Epic", epic.id],
  ]);
  expect(await alice.gl.EpicLabelEvents.show(group.id, epic.id, events[0].id)).toEqual(events[0]);
  // By iid, the path names the group's first epic: its events are not these.
  expect(await failureStatus(alice.gl.EpicLabelEvents.show(group.id, epic.iid, events[0].id))).toBe(404);
  // Epics have no milestone events.
  expect((await alice.api.get(`/groups/${group.id}/epics/${epic.id}/resource_milestone_events`)).status).toBe(404);
});

test("a deleted label's events stay without their label; a deleted milestone's events go with it", async () => {
  const project = await createProject(root, { name: "billing", visibility: "private", initialize_with_readme: true });
  const P = `/projects/${project.id}`;
  ok(await root.post(`${P}/repository/branches`, { json: { branch: "feature", ref: "main" } }), 201, "branch");
  const label = ok(await root.post(`${P}/labels`, { json: { name: "bug", color: "#d9534f" } }), 201, "label").body;
  const [v1, v2] = [ok(await root.post(`${P}/milestones`, { json: { title: "v1" } }), 201, "v1").body, ok(await root.post(`${P}/milestones`, { json: { title: "v2" } }), 201, "v2").body];
  ok(await root.post(`${P}/issues`, { json: { title: "A", labels: "bug", milestone_id: v1.id } }), 201, "issue");
  ok(await root.put(`${P}/issues/1`, { json: { milestone_id: v2.id } }), 200, "v2");
  ok(await root.post(`${P}/merge_requests`, { json: { title: "MR", source_branch: "feature", target_branch: "main", labels: "bug", milestone_id: v1.id } }), 201, "mr");

  ok(await root.delete(`${P}/labels/${label.id}`), 204, "delete label");
  ok(await root.delete(`${P}/milestones/${v1.id}`), 204, "delete v1");
  for (const resource of [`${P}/issues/1`, `${P}/merge_requests/1`]) {
    await eventually(async () => {
      const labels = ok(await root.get(`${resource}/resource_label_events`), 200, "label events").body;
      expect(labels.map((e: { action: string; label: unknown }) => [e.action, e.label])).toEqual([["add", null]]);
    });
    await eventually(async () => {
      const milestones = ok(await root.get(`${resource}/resource_milestone_events`), 200, "milestone events").body;
      expect(milestones.map((e: { milestone: { title: string } }) => e.milestone.title)).toEqual(resource.includes("issues") ? ["v2"] : []);
    });
  }
});

describe("who may read them: the issue's read rules", () => {
  const FAMILIES = ["label", "milestone", "weight", "iteration"];
  const outcome = (res: ApiResponse) => (res.status < 400 ? res.status : res.body?.message ?? res.body?.error ?? res.status);

  async function matrix(visibility: "private" | "public", confidential: boolean) {
    const project = await createProject(root, { name: "billing", visibility });
    const P = `/projects/${project.id}`;
    const milestone = ok(await root.post(`${P}/milestones`, { json: { title: "v1" } }), 201, "milestone").body;
    const issue = ok(await root.post(`${P}/issues`, { json: { title: "Rounding", labels: "bug", milestone_id: milestone.id, weight: 2, confidential } }), 201, "issue").body;
    const [outsider, guest, reporter] = [await createUser(app, "outsider"), await createUser(app, "guest"), await createUser(app, "reporter")];
    await addMember(app, "projects", project.id, guest.id, 10);
    await addMember(app, "projects", project.id, reporter.id, 20);
    const callers = { anonymous: apiClient(app.url), outsider: outsider.api, guest: guest.api, reporter: reporter.api };
    const table: Record<string, unknown[]> = {};
    for (const [role, api] of Object.entries(callers)) {
      table[role] = [];
      for (const family of FAMILIES) {
        const list = await api.get(`${P}/issues/${issue.iid}/resource_${family}_events`);
        table[role].push(outcome(list));
        if (list.status === 200 && family !== "iteration") expect(list.body).toHaveLength(1);
      }
    }
    return table;
  }

  test("a private project: members only, anonymous callers must sign in", async () => {
    expect(await matrix("private", false)).toEqual({
      anonymous: Array(4).fill("401 Unauthorized"),
      outsider: Array(4).fill("404 Project Not Found"),
      guest: [200, 200, 200, 200],
      reporter: [200, 200, 200, 200],
    });
  });

  test("a public project: every signed-in caller", async () => {
    expect(await matrix("public", false)).toEqual({
      anonymous: Array(4).fill("401 Unauthorized"),
      outsider: [200, 200, 200, 200],
      guest: [200, 200, 200, 200],
      reporter: [200, 200, 200, 200],
    });
  });

  test("a confidential issue on a public project: hidden below Reporter", async () => {
    expect(await matrix("public", true)).toEqual({
      anonymous: Array(4).fill("401 Unauthorized"),
      outsider: Array(4).fill("404 Not found"),
      guest: Array(4).fill("404 Not found"),
      reporter: [200, 200, 200, 200],
    });
  });

  test("a private group's epic: members only", async () => {
    const group = await createGroup(root, "Platform", "platform", { visibility: "private" });
    const epic = ok(await root.post(`/groups/${group.id}/epics`, { json: { title: "Roadmap", labels: "q3" } }), 201, "epic").body;
    const [outsider, guest] = [await createUser(app, "outsider"), await createUser(app, "guest")];
    await addMember(app, "groups", group.id, guest.id, 10);
    const path = `/groups/${group.id}/epics/${epic.id}/resource_label_events`;
    expect(outcome(await apiClient(app.url).get(path))).toBe("401 Unauthorized");
    expect(outcome(await outsider.api.get(path))).toBe("404 Group Not Found");
    expect(ok(await guest.api.get(path), 200, "guest").body).toEqual([expect.objectContaining({ action: "add", label: expect.objectContaining({ name: "q3" }) })]);
  });
});
