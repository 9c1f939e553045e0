import { apiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * A team tracks a bug with the real @gitbeaker/rest client, as a script against GitLab would:
 * project → issues → filtered lists → edit, close, reopen → comments → threads → state history.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("issues-gitbeaker");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

/** A user with an `api` token and a gitbeaker client of their own, made by root. */
async function createUser(username: string): Promise<{ id: number; api: GitbeakerUser["gl"] }> {
  const user = await createGitbeakerUser(app, username, { name: username });
  return { id: user.id, api: user.gl };
}

test("a bug's life with @gitbeaker/rest: issues, comments, threads and state events", async () => {
  const alice = await createUser("alice");
  const bob = await createUser("bob");

  const project = await alice.api.Projects.create({ name: "Billing API", visibility: "private" });
  const projectId = project.id as number;
  await alice.api.ProjectMembers.add(projectId, 30, { userId: bob.id });

  // Issues.
  const bug = await alice.api.Issues.create(projectId, "Totals are rounded wrongly", { labels: "bug,billing", description: "0.1 + 0.2" });
  expect(bug).toMatchObject({ iid: 1, project_id: projectId, state: "opened", labels: ["billing", "bug"], author: { username: "alice" }, user_notes_count: 0 });
  const feature = await bob.api.Issues.create(projectId, "Export invoices as CSV", { labels: "feature" });
  await bob.api.Issues.create(projectId, "Second rounding bug", { labels: "bug" });

  const bugs = await alice.api.Issues.all({ projectId, labels: "bug", state: "opened" });
  expect(bugs.map((i) => i.title)).toEqual(["Second rounding bug", "Totals are rounded wrongly"]);
  const billingBugs = await alice.api.Issues.all({ projectId, labels: "bug,billing" });
  expect(billingBugs.map((i) => i.iid)).toEqual([bug.iid]);

  // Edit, close, reopen.
  const edited = await bob.api.Issues.edit(projectId, bug.iid as number, { title: "Totals are rounded half-up", assigneeIds: [bob.id] });
  expect(edited).toMatchObject({ title: "Totals are rounded half-up", assignees: [expect.objectContaining({ username: "bob" })] });
  const closed = await bob.api.Issues.edit(projectId, bug.iid as number, { stateEvent: "close" });
  expect(closed).toMatchObject({ state: "closed", closed_by: expect.objectContaining({ username: "bob" }) });
  expect((await alice.api.Issues.all({ projectId, labels: "bug", state: "opened" })).map((i) => i.iid)).toEqual([3]);
  expect((await alice.api.Issues.all({ projectId, state: "closed" })).map((i) => i.iid)).toEqual([bug.iid]);
  const reopened = await alice.api.Issues.edit(projectId, bug.iid as number, { stateEvent: "reopen" });
  expect(reopened).toMatchObject({ state: "opened", closed_at: null, closed_by: null });

  // Comments.
  const note = await bob.api.IssueNotes.create(projectId, bug.iid as number, "Reproduced with 0.1 + 0.2");
  expect(note).toMatchObject({ body: "Reproduced with 0.1 + 0.2", author: { username: "bob" }, noteable_type: "Issue", noteable_iid: bug.iid, system: false });
  const internal = await alice.api.IssueNotes.create(projectId, bug.iid as number, "Customer: Acme", { internal: true });
  expect(internal).toMatchObject({ internal: true });
  const changedNote = await bob.api.IssueNotes.edit(projectId, bug.iid as number, note.id as number, { body: "Reproduced with 0.1 + 0.2 = 0.30000000000000004" });
  expect(changedNote.body).toBe("Reproduced with 0.1 + 0.2 = 0.30000000000000004");
  expect(await failureStatus(alice.api.IssueNotes.edit(projectId, bug.iid as number, note.id as number, { body: "not mine" }))).toBe(403);

  const comments = await alice.api.IssueNotes.all(projectId, bug.iid as number, { sort: "asc" });
  // The title change is a system note; state changes are events, not notes.
  expect(comments.map((n) => [n.system, n.body])).toEqual([
    [true, "changed title from **Totals are rounded wrongly** to **Totals are rounded half-up**"],
    [true, "assigned to @bob"],
    [false, "Reproduced with 0.1 + 0.2 = 0.30000000000000004"],
    [false, "Customer: Acme"],
  ]);
  expect((await alice.api.Issues.show(bug.iid as number, { projectId })).user_notes_count).toBe(2);
  await alice.api.IssueNotes.remove(projectId, bug.iid as number, internal.id as number);
  expect((await alice.api.IssueNotes.all(projectId, bug.iid as number)).map((n) => n.body)).not.toContain("Customer: Acme");

  // Threads.
  const thread = await alice.api.IssueDiscussions.create(projectId, bug.iid as number, "Round half to even, like banks do?");
  expect(thread).toMatchObject({ individual_note: false, notes: [expect.objectContaining({ type: "DiscussionNote", body: "Round half to even, like banks do?" })] });
  const answer = await bob.api.IssueDiscussions.addNote(projectId, bug.iid as number, thread.id, "Yes, and document it");
  expect(answer).toMatchObject({ type: "DiscussionNote", body: "Yes, and document it", author: { username: "bob" } });
  const fixed = await bob.api.IssueDiscussions.editNote(projectId, bug.iid as number, thread.id, answer.id as number, { body: "Yes, and document it in the README" });
  expect(fixed.body).toBe("Yes, and document it in the README");

  // Replying to a plain comment turns it into a thread.
  const discussions = await alice.api.IssueDiscussions.all(projectId, bug.iid as number);
  const plain = discussions.find((d) => d.notes?.[0].id === note.id)!;
  expect(plain.individual_note).toBe(true);
  await alice.api.IssueDiscussions.addNote(projectId, bug.iid as number, plain.id, "Thanks!");
  const threaded = await alice.api.IssueDiscussions.show(projectId, bug.iid as number, plain.id);
  expect(threaded.individual_note).toBe(false);
  expect(threaded.notes!.map((n) => [n.type, n.body])).toEqual([
    ["DiscussionNote", "Reproduced with 0.1 + 0.2 = 0.30000000000000004"],
    ["DiscussionNote", "Thanks!"],
  ]);

  await bob.api.IssueDiscussions.removeNote(projectId, bug.iid as number, thread.id, answer.id as number);
  const afterRemoval = await alice.api.IssueDiscussions.show(projectId, bug.iid as number, thread.id);
  expect(afterRemoval.notes!.map((n) => n.body)).toEqual(["Round half to even, like banks do?"]);
  expect((await alice.api.Issues.show(bug.iid as number, { projectId })).user_notes_count).toBe(3);

  // State history.
  const events = await alice.api.IssueStateEvents.all(projectId, bug.iid as number);
  expect(events.map((e) => [e.state, e.user.username, e.resource_type, e.resource_id])).toEqual([
    ["closed", "bob", "Issue", bug.id],
    ["reopened", "alice", "Issue", bug.id],
  ]);
  const first = await alice.api.IssueStateEvents.show(projectId, bug.iid as number, events[0].id);
  expect(first).toEqual(events[0]);
  expect(await alice.api.IssueStateEvents.all(projectId, feature.iid as number)).toEqual([]);

  // Paging through comments the way a script collects them all.
  for (let i = 0; i < 3; i++) await bob.api.IssueNotes.create(projectId, feature.iid as number, `comment ${i}`);
  const paged = await bob.api.IssueNotes.all(projectId, feature.iid as number, { perPage: 2, sort: "asc" });
  expect(paged.map((n) => n.body)).toEqual(["comment 0", "comment 1", "comment 2"]);
  const { data, paginationInfo } = await bob.api.IssueNotes.all(projectId, feature.iid as number, { perPage: 2, maxPages: 1, showExpanded: true });
  expect(data).toHaveLength(2);
  expect(paginationInfo).toMatchObject({ total: 3, totalPages: 2, perPage: 2, current: 1, next: 2 });

  // Someone outside the project sees nothing of it.
  const carol = await createUser("carol");
  const hidden = await apiClient(app.url).as(null).get(`/projects/${projectId}/issues/${bug.iid}`);
  expect(hidden.status).toBe(404);
  expect(await failureStatus(carol.api.IssueNotes.all(projectId, bug.iid as number))).toBe(404);
});
