import { apiClient, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * The To-dos API through @gitbeaker/rest: to-dos a user marks (Issues/MergeRequests.createTodo),
 * those the activity service makes of the issues' and merge requests' events (assignments, review
 * requests, mentions in descriptions and notes), listing with filters, marking done. Each user sees
 * their own only, and only those whose target they may still read.
 *
 * World: alice owns a private project "secret" and a public one "open" (both with a README, so
 * merge requests have branches), where guest, reporter and developer have those roles; outsider
 * is a member of neither.
 */
let app: TestApp;
let alice: GitbeakerUser;
let guest: GitbeakerUser;
let reporter: GitbeakerUser;
let developer: GitbeakerUser;
let outsider: GitbeakerUser;
let anonymous: ApiClient;
let secret: number;
let open: number;

beforeAll(async () => {
  app = await startApp("todos");
});
afterAll(() => app.stop());

beforeEach(async () => {
  await app.reset();
  anonymous = apiClient(app.url);
  [alice, guest, reporter, developer, outsider] = await Promise.all(["alice", "guest", "reporter", "developer", "outsider"].map((u) => createGitbeakerUser(app, u)));
  secret = (await alice.gl.Projects.create({ name: "secret", visibility: "private", initializeWithReadme: true })).id as number;
  open = (await alice.gl.Projects.create({ name: "open", visibility: "public", initializeWithReadme: true })).id as number;
  for (const project of [secret, open])
    for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30]] as const) await alice.gl.ProjectMembers.add(project, level, { userId: user.id });
});

type Todo = { id: number; action_name: string; target_type: string; state: string; body: string; author: { username: string }; target: { id: number; iid: number }; project: { id: number } };
const list = async (user: GitbeakerUser, options: Record<string, unknown> = {}) => (await user.gl.TodoLists.all(options)) as unknown as Todo[];
const summary = (todos: Todo[]) => todos.map((t) => `${t.action_name} ${t.target_type} ${t.target.iid}`).sort();

async function mergeRequest(project: number, branch: string, options: Record<string, unknown> = {}) {
  await alice.gl.Branches.create(project, branch, "main");
  return alice.gl.MergeRequests.create(project, branch, "main", `Change ${branch}`, options);
}

describe("marking an issue or merge request as a to-do", () => {
  test("201 with the to-do, 304 while it is pending; listed to its owner only; marked done one by one or all at once", async () => {
    const issue = await alice.gl.Issues.create(secret, "Broken login");
    const todo = (await developer.gl.Issues.createTodo(secret, issue.iid)) as unknown as Todo & Record<string, unknown>;
    expect(todo).toMatchObject({
      project: { id: secret, path_with_namespace: "alice/secret", name: "secret", name_with_namespace: expect.any(String) },
      author: { username: "developer" },
      action_name: "marked",
      target_type: "Issue",
      target: { id: issue.id, iid: issue.iid, title: "Broken login", project_id: secret },
      target_url: issue.web_url,
      body: "Broken login",
      state: "pending",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await failureStatus(developer.gl.Issues.createTodo(secret, issue.iid))).toBe(304);

    const res = await apiClient(app.url, developer.token).get("/todos");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBe("1");
    expect(res.body.map((t: Todo) => t.id)).toEqual([todo.id]);
    expect(await list(reporter)).toEqual([]);
    expect(await list(alice)).toEqual([]);

    // Another user's to-do is none of theirs.
    expect(await failureStatus(reporter.gl.TodoLists.done({ todoId: todo.id }))).toBe(404);
    const done = (await developer.gl.TodoLists.done({ todoId: todo.id })) as unknown as Todo;
    expect(done).toMatchObject({ id: todo.id, state: "done" });
    expect(await list(developer)).toEqual([]);
    expect((await list(developer, { state: "done" })).map((t) => t.id)).toEqual([todo.id]);

    // Done, it may be marked again; mark_as_done for all is 204 and leaves others' alone.
    const again = (await developer.gl.Issues.createTodo(secret, issue.iid)) as unknown as Todo;
    const mr = await mergeRequest(secret, "feature");
    await developer.gl.MergeRequests.createTodo(secret, mr.iid);
    await reporter.gl.Issues.createTodo(secret, issue.iid);
    expect(summary(await list(developer))).toEqual([`marked Issue ${issue.iid}`, `marked MergeRequest ${mr.iid}`]);
    const all = await apiClient(app.url, developer.token).post("/todos/mark_as_done");
    expect(all.status).toBe(204);
    expect(await list(developer)).toEqual([]);
    expect((await list(developer, { state: "done" })).map((t) => t.id)).toContain(again.id);
    expect(summary(await list(reporter))).toEqual([`marked Issue ${issue.iid}`]);
  });

  test("the merge request's to-do shows it as the merge request list does", async () => {
    const mr = await mergeRequest(open, "docs");
    const todo = (await outsider.gl.MergeRequests.createTodo(open, mr.iid)) as unknown as Todo & Record<string, unknown>;
    expect(todo).toMatchObject({ action_name: "marked", target_type: "MergeRequest", target: { id: mr.id, iid: mr.iid, source_branch: "docs" }, target_url: mr.web_url, body: mr.title });
    expect(await failureStatus(outsider.gl.MergeRequests.createTodo(open, mr.iid))).toBe(304);
  });

  test("permissions: 401 anonymous; 404 where the target cannot be read, 201 where it can", async () => {
    const matrix: Record<string, Record<string, number>> = {};
    for (const project of [secret, open]) {
      const issue = await alice.gl.Issues.create(project, "Issue");
      const mr = await mergeRequest(project, `b${project}`);
      for (const [kind, iid] of [["issues", issue.iid], ["merge_requests", mr.iid]] as const) {
        const path = `/projects/${project}/${kind}/${iid}/todo`;
        const row: Record<string, number> = { anonymous: (await anonymous.post(path)).status };
        for (const user of [outsider, guest, reporter, developer]) row[user.username] = (await apiClient(app.url, user.token).post(path)).status;
        matrix[`${project === secret ? "private" : "public"} ${kind}`] = row;
      }
    }
    expect(matrix).toEqual({
      "private issues": { anonymous: 401, outsider: 404, guest: 201, reporter: 201, developer: 201 },
      // GitLab: a guest sees the private project but not its merge requests (authorize! → 403).
      "private merge_requests": { anonymous: 401, outsider: 404, guest: 403, reporter: 201, developer: 201 },
      "public issues": { anonymous: 401, outsider: 201, guest: 201, reporter: 201, developer: 201 },
      "public merge_requests": { anonymous: 401, outsider: 201, guest: 201, reporter: 201, developer: 201 },
    });
    // The To-dos API itself needs a user.
    expect((await anonymous.get("/todos")).status).toBe(401);
    expect((await anonymous.post("/todos/mark_as_done")).status).toBe(401);
  });

  test("validation: unknown targets 404, bad ids and filters 400", async () => {
    const dev = apiClient(app.url, developer.token);
    expect((await dev.post(`/projects/${secret}/issues/99/todo`)).status).toBe(404);
    expect((await dev.post(`/projects/${secret}/merge_requests/99/todo`)).status).toBe(404);
    expect((await dev.post(`/projects/999999/issues/1/todo`)).status).toBe(404);
    const bad = await dev.post(`/projects/${secret}/issues/abc/todo`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "issue_iid is invalid" });
    expect((await dev.post("/todos/999999/mark_as_done")).status).toBe(404);
    for (const [param, value] of [["action", "bogus"], ["state", "all"], ["type", "Snippet"]]) {
      const res = await dev.get("/todos", { query: { [param]: value } });
      expect([res.status, res.body]).toEqual([400, { error: `${param} does not have a valid value` }]);
    }
    expect((await dev.get("/todos", { query: { author_id: "x" } })).status).toBe(400);
  });
});

describe("to-dos made of what others do", () => {
  test("assigning and mentioning make to-dos for the others, not for the actor; commenting resolves the commenter's own", async () => {
    const issue = await alice.gl.Issues.create(secret, "Slow search", {
      assigneeIds: [developer.id, alice.id],
      description: "@reporter please confirm\nalso cc @guest, @outsider and @alice",
    });
    // outsider cannot read the private project: no to-do; alice acted: none for her.
    await eventually(async () => {
      expect(summary(await list(developer))).toEqual([`assigned Issue ${issue.iid}`]);
      expect(summary(await list(reporter))).toEqual([`directly_addressed Issue ${issue.iid}`]);
      expect(summary(await list(guest))).toEqual([`mentioned Issue ${issue.iid}`]);
    });
    const [assigned] = await list(developer);
    expect(assigned).toMatchObject({ author: { username: "alice" }, body: "Slow search", state: "pending", project: { id: secret } });
    expect(await list(alice)).toEqual([]);
    expect(await list(outsider)).toEqual([]);

    // A comment mentioning alice: hers is directly addressed, with the note as its body; the
    // developer's own pending to-do on the issue is done once they comment.
    await developer.gl.IssueNotes.create(secret, issue.iid, "@alice found it");
    await eventually(async () => {
      expect(await list(alice)).toEqual([expect.objectContaining({ action_name: "directly_addressed", body: "@alice found it", author: expect.objectContaining({ username: "developer" }) })]);
      expect(await list(developer)).toEqual([]);
    });
    expect(summary(await list(developer, { state: "done" }))).toEqual([`assigned Issue ${issue.iid}`]);

    // Re-assigning: only the newly assigned get one; an edit mentioning someone already mentioned makes none.
    await alice.gl.Issues.edit(secret, issue.iid, { assigneeIds: [developer.id, reporter.id], description: "@reporter please confirm\nalso cc @guest and @developer" });
    await eventually(async () => {
      expect(summary(await list(reporter))).toEqual([`assigned Issue ${issue.iid}`, `directly_addressed Issue ${issue.iid}`]);
      expect(summary(await list(developer))).toEqual([`mentioned Issue ${issue.iid}`]);
    });
    expect(summary(await list(guest))).toEqual([`mentioned Issue ${issue.iid}`]);

    // Closing resolves the closer's own.
    await reporter.gl.Issues.edit(secret, issue.iid, { stateEvent: "close" });
    await eventually(async () => expect(await list(reporter)).toEqual([]));
    expect(summary(await list(guest))).toEqual([`mentioned Issue ${issue.iid}`]);
  });

  test("a merge request's assignees and reviewers get to-dos; filters narrow the list", async () => {
    const mr = await mergeRequest(open, "perf", { assigneeId: reporter.id, reviewerIds: [developer.id, alice.id], description: "see @guest" });
    await eventually(async () => {
      expect(summary(await list(reporter))).toEqual([`assigned MergeRequest ${mr.iid}`]);
      expect(summary(await list(developer))).toEqual([`review_requested MergeRequest ${mr.iid}`]);
      expect(summary(await list(guest))).toEqual([`mentioned MergeRequest ${mr.iid}`]);
    });
    expect(await list(alice)).toEqual([]);
    const issue = await alice.gl.Issues.create(secret, "Other", { assigneeIds: [developer.id] });
    await eventually(async () => expect(await list(developer)).toHaveLength(2));

    expect(summary(await list(developer, { type: "Issue" }))).toEqual([`assigned Issue ${issue.iid}`]);
    expect(summary(await list(developer, { action: "review_requested" }))).toEqual([`review_requested MergeRequest ${mr.iid}`]);
    expect(summary(await list(developer, { projectId: open }))).toEqual([`review_requested MergeRequest ${mr.iid}`]);
    expect(await list(developer, { authorId: developer.id })).toEqual([]);
    expect(await list(developer, { authorId: alice.id })).toHaveLength(2);
    // Nobody's filters reach another user's to-dos.
    expect(await list(outsider, { projectId: open })).toEqual([]);
    expect(await list(outsider, { authorId: alice.id })).toEqual([]);

    // Merging... deleting the merge request takes its to-dos with it.
    await alice.gl.MergeRequests.remove(open, mr.iid);
    await eventually(async () => expect(await list(reporter)).toEqual([]));
  });

  test("group_id: the to-dos of the group's projects only; an unknown group 404", async () => {
    const team = await alice.gl.Groups.create("Team", "team", { visibility: "private" });
    const tools = (await alice.gl.Projects.create({ name: "tools", namespaceId: team.id })).id as number;
    await alice.gl.ProjectMembers.add(tools, 30, { userId: developer.id });
    const inGroup = await alice.gl.Issues.create(tools, "In the group", { assigneeIds: [developer.id] });
    await alice.gl.Issues.create(secret, "Outside", { assigneeIds: [developer.id] });
    await eventually(async () => expect(await list(developer)).toHaveLength(2));
    expect((await list(developer, { groupId: team.id })).map((t) => [t.project.id, t.target.iid])).toEqual([[tools, inGroup.iid]]);
    expect(await failureStatus(developer.gl.TodoLists.all({ groupId: 999999 }))).toBe(404);
    // A group the caller cannot see is none to them either.
    expect(await failureStatus(outsider.gl.TodoLists.all({ groupId: team.id }))).toBe(404);
  });

  test("a to-do whose target its owner may no longer read is not listed", async () => {
    const issue = await alice.gl.Issues.create(secret, "Members only");
    await guest.gl.Issues.createTodo(secret, issue.iid);
    expect(await list(guest)).toHaveLength(1);
    await alice.gl.ProjectMembers.remove(secret, guest.id);
    await eventually(async () => expect(await list(guest)).toEqual([]));
    // Still the guest's own: listed again once they may read it.
    await alice.gl.ProjectMembers.add(secret, 10, { userId: guest.id });
    await eventually(async () => expect(await list(guest)).toHaveLength(1));
  });
});
