import { noteParams } from "@collab/notes-contract";

describe("noteParams", () => {
  const issue = noteParams("issue_iid");
  const mr = noteParams("merge_request_iid");

  test("names the noteable's path param after the kind", () => {
    expect(Object.keys(issue.ListNotes.shape)).toContain("issue_iid");
    expect(Object.keys(issue.ListNotes.shape)).not.toContain("merge_request_iid");
    expect(Object.keys(mr.DiscussionNote.shape)).toEqual(expect.arrayContaining(["id", "merge_request_iid", "discussion_id", "note_id"]));
    expect(Object.keys(mr.DiscussionNote.shape)).not.toContain("issue_iid");
  });

  test("coerces the iid and applies list defaults", () => {
    const p = mr.ListNotes.parse({ id: "7", merge_request_iid: "3" });
    expect(p).toMatchObject({ id: "7", merge_request_iid: 3, sort: "desc", order_by: "created_at", activity_filter: "all_notes" });
    expect(mr.ListNotes.safeParse({ id: "7" }).success).toBe(false);
  });

  test("a discussion note update takes exactly one of body and resolved", () => {
    const base = { id: "1", merge_request_iid: 2, discussion_id: "abc", note_id: 5 };
    expect(mr.UpdateDiscussionNote.safeParse({ ...base, body: "x" }).success).toBe(true);
    expect(mr.UpdateDiscussionNote.safeParse({ ...base, resolved: "true" }).data).toMatchObject({ resolved: true });
    const none = mr.UpdateDiscussionNote.safeParse(base);
    expect(none.error?.issues[0].message).toBe("body, resolved are missing, exactly one parameter must be provided");
    const both = mr.UpdateDiscussionNote.safeParse({ ...base, body: "x", resolved: true });
    expect(both.error?.issues[0].message).toBe("body, resolved are mutually exclusive");
  });

  test("resolving a thread requires a boolean resolved", () => {
    const base = { id: "1", merge_request_iid: 2, discussion_id: "abc" };
    expect(mr.ResolveDiscussion.safeParse(base).success).toBe(false);
    expect(mr.ResolveDiscussion.safeParse({ ...base, resolved: "maybe" }).success).toBe(false);
    expect(mr.ResolveDiscussion.parse({ ...base, resolved: false }).resolved).toBe(false);
  });

  test("created_at must be after the epoch; an update body may not be blank", () => {
    const base = { id: "1", issue_iid: 2, body: "hi" };
    expect(issue.CreateNote.safeParse({ ...base, created_at: "1970-01-01T00:00:00Z" }).success).toBe(false);
    expect(issue.CreateNote.safeParse({ ...base, created_at: "2020-01-01T00:00:00Z" }).success).toBe(true);
    expect(issue.UpdateNote.safeParse({ id: "1", issue_iid: 2, note_id: 3, body: "  " }).success).toBe(false);
  });

  test("a commit is named by its sha (or a ref), kept as a string; a new thread may carry a diff position", () => {
    const commit = noteParams("commit_id");
    const sha = "0123456789abcdef0123456789abcdef01234567";
    expect(commit.DiscussionRef.parse({ id: "1", commit_id: "main", discussion_id: "d" }).commit_id).toBe("main");
    const refs = { base_sha: "a", start_sha: "a", head_sha: sha, position_type: "text" };
    const parsed = commit.CreateDiscussion.parse({ id: "1", commit_id: sha, body: "x", position: { ...refs, new_line: "3" } });
    expect(parsed.position).toEqual({ ...refs, new_line: 3 });
    expect(commit.CreateDiscussion.safeParse({ id: "1", commit_id: sha, body: "x", position: { ...refs, position_type: "line" } }).success).toBe(false);
    expect(commit.CreateDiscussion.safeParse({ id: "1", commit_id: sha, body: "x", position: { start_sha: "a", head_sha: sha, position_type: "text" } }).success).toBe(false);
  });
});
