import type { TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * A change goes through review with the real @gitbeaker/rest client, as a script against GitLab
 * would: branch and commit → merge request → filtered lists → edit → approval settings and rules →
 * comments and resolvable threads → approve → merge (closing the issue it names) → state history.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("merge-requests-gitbeaker");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

/** A user with an `api` token and a gitbeaker client of their own, made by root. */
async function createUser(username: string): Promise<{ id: number; api: GitbeakerUser["gl"] }> {
  const user = await createGitbeakerUser(app, username, { name: username });
  return { id: user.id, api: user.gl };
}

test("a change's review with @gitbeaker/rest: merge requests, approvals, rules, notes, threads and state events", async () => {
  const alice = await createUser("alice"); // maintainer (owner of the project)
  const bob = await createUser("bob"); // developer, writes the change
  const carol = await createUser("carol"); // developer, reviews it

  const project = await alice.api.Projects.create({ name: "Billing API", visibility: "private", initializeWithReadme: true });
  const projectId = project.id as number;
  await alice.api.ProjectMembers.add(projectId, 30, { userId: bob.id });
  await alice.api.ProjectMembers.add(projectId, 30, { userId: carol.id });
  const bug = await alice.api.Issues.create(projectId, "Totals are rounded wrongly");

  // A branch with a commit on it.
  await bob.api.Branches.create(projectId, "fix-rounding", "main");
  const commit = await bob.api.Commits.create(projectId, "fix-rounding", "Round half to even", [{ action: "update", filePath: "README.md", content: "fixed" }]);
  expect(commit).toMatchObject({ title: "Round half to even", id: expect.stringMatching(/^[0-9a-f]{40}$/) });

  // The merge request.
  const mr = await bob.api.MergeRequests.create(projectId, "fix-rounding", "main", "Draft: Round totals half to even", {
    description: `Closes #${bug.iid}`,
    labels: "bug,billing",
    reviewerIds: [carol.id],
    removeSourceBranch: true,
  });
  expect(mr).toMatchObject({
    iid: 1,
    project_id: projectId,
    state: "opened",
    draft: true,
    work_in_progress: true,
    source_branch: "fix-rounding",
    target_branch: "main",
    sha: commit.id,
    labels: ["billing", "bug"],
    author: expect.objectContaining({ username: "bob" }),
    reviewers: [expect.objectContaining({ username: "carol" })],
    references: { short: "!1", relative: "!1", full: expect.stringMatching(/billing-api!1$/) },
    detailed_merge_status: "draft_status",
  });
  expect(await failureStatus(bob.api.MergeRequests.create(projectId, "fix-rounding", "main", "Same branch again"))).toBe(409);

  const mine = await bob.api.MergeRequests.all({ projectId, state: "opened", wip: "yes" });
  expect(mine.map((m) => m.iid)).toEqual([mr.iid]);
  expect(await carol.api.MergeRequests.all({ reviewerId: carol.id, scope: "all" })).toHaveLength(1);
  expect(await carol.api.MergeRequests.all({ projectId, labels: "feature" })).toEqual([]);

  const ready = await bob.api.MergeRequests.edit(projectId, mr.iid as number, { title: "Round totals half to even", assigneeIds: [bob.id] });
  expect(ready).toMatchObject({ draft: false, assignees: [expect.objectContaining({ username: "bob" })] });

  // Approval settings and a rule: one approval from carol is needed.
  const settings = await alice.api.MergeRequestApprovals.editConfiguration(projectId, { resetApprovalsOnPush: true, mergeRequestsAuthorApproval: false });
  expect(settings).toMatchObject({ reset_approvals_on_push: true, merge_requests_author_approval: false });
  const rule = await alice.api.MergeRequestApprovals.createApprovalRule(projectId, "Reviewers", 1, { userIds: [carol.id] });
  expect(rule).toMatchObject({ name: "Reviewers", approvals_required: 1, users: [expect.objectContaining({ username: "carol" })] });
  expect((await alice.api.MergeRequestApprovals.allApprovalRules(projectId)).map((r) => r.name)).toContain("Reviewers");
  const before = await bob.api.MergeRequestApprovals.showConfiguration(projectId, { mergerequestIId: mr.iid as number });
  expect(before).toMatchObject({ approvals_required: 1, approvals_left: 1, approved_by: [] });

  // Review: a comment, and a thread that blocks until resolved.
  const note = await carol.api.MergeRequestNotes.create(projectId, mr.iid as number, "Looks right");
  expect(note).toMatchObject({ noteable_type: "MergeRequest", noteable_iid: mr.iid, system: false, resolvable: false });
  const thread = await carol.api.MergeRequestDiscussions.create(projectId, mr.iid as number, "Add a test for 2.5?");
  expect(thread.notes![0]).toMatchObject({ type: "DiscussionNote", resolvable: true, resolved: false });
  const reply = await bob.api.MergeRequestDiscussions.addNote(projectId, mr.iid as number, thread.id, "Added");
  const resolved = await carol.api.MergeRequestDiscussions.editNote(projectId, mr.iid as number, thread.id, reply.id as number, { resolved: true });
  expect(resolved).toMatchObject({ resolved: true, resolved_by: expect.objectContaining({ username: "carol" }) });
  const first = thread.notes![0].id as number;
  await carol.api.MergeRequestDiscussions.editNote(projectId, mr.iid as number, thread.id, first, { resolved: true });
  const shown = await carol.api.MergeRequestDiscussions.show(projectId, mr.iid as number, thread.id);
  expect(shown.notes!.every((n) => n.resolved === true)).toBe(true);
  expect((await carol.api.MergeRequestNotes.all(projectId, mr.iid as number)).map((n) => n.body)).toContain("Looks right");

  // Not approved yet: merging is refused; the author may not approve their own change.
  expect(await failureStatus(alice.api.MergeRequests.merge(projectId, mr.iid as number))).toBe(405);
  expect(await failureStatus(bob.api.MergeRequestApprovals.approve(projectId, mr.iid as number))).toBe(401);
  expect(await failureStatus(carol.api.MergeRequestApprovals.approve(projectId, mr.iid as number, { sha: "0".repeat(40) }))).toBe(409);
  const approved = await carol.api.MergeRequestApprovals.approve(projectId, mr.iid as number, { sha: commit.id as string });
  expect(approved).toMatchObject({ approvals_left: 0, approved_by: [{ user: expect.objectContaining({ username: "carol" }) }] });
  const state = await alice.api.MergeRequestApprovals.showApprovalState(projectId, mr.iid as number);
  expect(state.rules.find((r) => r.name === "Reviewers")).toMatchObject({ approved: true });

  // Unapprove and approve again; a merge with a stale sha is refused.
  await carol.api.MergeRequestApprovals.unapprove(projectId, mr.iid as number);
  expect((await bob.api.MergeRequestApprovals.showConfiguration(projectId, { mergerequestIId: mr.iid as number })).approvals_left).toBe(1);
  await carol.api.MergeRequestApprovals.approve(projectId, mr.iid as number);
  expect(await failureStatus(alice.api.MergeRequests.merge(projectId, mr.iid as number, { sha: "0".repeat(40) }))).toBe(409);

  const merged = await alice.api.MergeRequests.merge(projectId, mr.iid as number, { sha: commit.id as string, squash: true });
  expect(merged).toMatchObject({
    state: "merged",
    merged_by: expect.objectContaining({ username: "alice" }),
    merge_user: expect.objectContaining({ username: "alice" }),
    merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
    squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
    merged_at: expect.any(String),
  });
  // The source branch went with it, and the issue it names is closed.
  expect(await failureStatus(alice.api.Branches.show(projectId, "fix-rounding"))).toBe(404);
  expect((await alice.api.Branches.show(projectId, "main")).commit.id).toBe(merged.merge_commit_sha);
  const closedBug = await alice.api.Issues.show(bug.iid as number, { projectId });
  expect(closedBug).toMatchObject({ state: "closed", merge_requests_count: 1 });

  // State history of the merge request.
  const events = await alice.api.MergeRequestStateEvents.all(projectId, mr.iid as number);
  expect(events.map((e) => [e.state, e.user.username, e.resource_type, e.resource_id])).toEqual([["merged", "alice", "MergeRequest", mr.id]]);
  expect(await alice.api.MergeRequestStateEvents.show(projectId, mr.iid as number, events[0].id)).toEqual(events[0]);

  // Someone outside the project sees nothing of it.
  const dave = await createUser("dave");
  expect(await failureStatus(dave.api.MergeRequests.show(projectId, mr.iid as number))).toBe(404);
  expect(await dave.api.MergeRequests.all({ scope: "all" })).toEqual([]);
});
