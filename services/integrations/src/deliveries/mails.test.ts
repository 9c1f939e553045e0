import { Repositories } from "@collab/repositories-contract";
import { Runners } from "@collab/runners-contract";
import { canSendFrom, mailable, pushMail } from "./mails";
import { describeEvent } from "./notifier.consumers";

const project = { id: 7, name: "app", namespace_name: "team", visibility: "private", path_with_namespace: "team/app", web_url: "http://h/team/app", group_ids: [1], default_branch: "main" };
const ann = { name: "Ann", username: "ann" };
const A = "a".repeat(40);
const B = "b".repeat(40);
const ZERO = "0".repeat(40);
const C = "c".repeat(40);
const commit = (id: string, message: string) => ({ id, message, title: message.split("\n")[0], timestamp: "2026-01-02T03:04:05Z", url: `http://h/team/app/-/commit/${id}`, author: { name: "Ann", email: "ann@example.com" } });

describe("emails on push", () => {
  test("subjects as RepositoryPush#subject: one commit, several, a new branch, a deleted one, a new tag", () => {
    expect(pushMail(project, ann, { refType: "branch", ref: "main", before: A, after: B, commitCount: 1, commits: [commit(B, "Fix totals")] }).subject).toBe("[Git][team/app][main] Fix totals");
    expect(pushMail(project, ann, { refType: "branch", ref: "main", before: A, after: B, commitCount: 3, commits: [commit(C, "Start"), commit(B, "Fix totals")] }).subject).toBe("[Git][team/app][main] 3 commits: Fix totals");
    expect(pushMail(project, ann, { refType: "branch", ref: "feature/x", before: ZERO, after: B, commitCount: 0 }).subject).toBe("[Git][team/app] Pushed new branch feature/x");
    expect(pushMail(project, ann, { refType: "branch", ref: "old", before: A, after: ZERO }).subject).toBe("[Git][team/app] Deleted branch old");
    expect(pushMail(project, ann, { refType: "tag", ref: "v1.0", before: ZERO, after: B }).subject).toBe("[Git][team/app] Pushed new tag v1.0");
  });

  test("the body names the pusher, the ref and each commit with its link and message; sender, headers and HTML alternative", () => {
    const mail = pushMail(project, ann, { refType: "branch", ref: "main", before: A, after: B, commitCount: 3, commits: [commit(C, "Start"), commit(B, "Fix <totals>\n\nThe long story.")] });
    expect(mail.text).toContain("Ann pushed to branch main at team/app");
    expect(mail.text).toContain(`Commits:\n\n(1 earlier commit in this push)\n\ncccccccc ( http://h/team/app/-/commit/${C} )\nStart\n- - - - -\n\nbbbbbbbb ( http://h/team/app/-/commit/${B} )\nFix <totals>\n\nThe long story.\n- - - - -`);
    expect(mail.text).toContain(`View it on GitLab: http://h/team/app/-/compare/${A}...${B}`);
    expect(mail.html).toContain("Fix &lt;totals&gt;<br><br>The long story.");
    expect(mail.from).toEqual({ name: "Ann (@ann)" });
    expect(mail.headers).toEqual({ "X-GitLab-Project": "app", "X-GitLab-Project-Id": "7", "X-GitLab-Project-Path": "team/app", "X-GitLab-Author": "ann" });
  });

  test("what is mailed: not a push without new commits, nor a tag moved; the branch filter applies to branches only", () => {
    expect(mailable({ refType: "branch", ref: "main", before: A, after: B, commitCount: 0 })).toBe(false);
    expect(mailable({ refType: "tag", ref: "v1", before: A, after: B })).toBe(false);
    const pushed = { projectId: 7, before: A, after: B, userId: 2, userUsername: "ann", commits: [commit(B, "x")], totalCommitsCount: 1, commitTitle: "x" };
    expect(describeEvent("emails-on-push", Repositories.events.branchPushed.name, { ...pushed, ref: "refs/heads/main", branch: "main", commitCount: 1 })).toMatchObject({ kind: "push_events", branch: "main" });
    expect(describeEvent("emails-on-push", Repositories.events.branchPushed.name, { ...pushed, ref: "refs/heads/main", branch: "main", commitCount: 0, commits: [], totalCommitsCount: 0 })).toBeNull();
    const tag = describeEvent("emails-on-push", Repositories.events.tagPushed.name, { ...pushed, before: ZERO, ref: "refs/tags/v1", tag: "v1" })!;
    expect(tag.kind).toBe("tag_push_events");
    expect(tag.branch).toBeUndefined();
  });

  test("the committer's address is a sender only in the instance's domain or a parent of it", () => {
    expect(canSendFrom("ann@gitlab.example.com", "gitlab.example.com")).toBe(true);
    expect(canSendFrom("ann@Example.com", "gitlab.example.com")).toBe(true);
    expect(canSendFrom("ann@evil.com", "gitlab.example.com")).toBe(false);
    expect(canSendFrom("ann@com", "gitlab.example.com")).toBe(false);
  });
});

describe("pipeline status emails", () => {
  const p = { pipeline_id: 5, project_id: 7, ref: "main", tag: false, sha: "0123456789abcdef", status: "failed", user_id: null };
  test("Notify's subject: the project's name, the status and ref, the short sha; pipeline headers", () => {
    const mail = describeEvent("pipelines-email", Runners.events.pipelineFinished.name, p)!.build(project, "Someone", "t", undefined) as Record<string, any>;
    expect(mail.subject).toBe("app | Failed pipeline for main | 01234567");
    expect(mail.headers).toMatchObject({ "X-GitLab-Pipeline-Id": "5", "X-GitLab-Pipeline-Ref": "main", "X-GitLab-Pipeline-Status": "failed" });
    expect(mail.text).toContain("Your pipeline has failed.");
    const ok = describeEvent("pipelines-email", Runners.events.pipelineFinished.name, { ...p, status: "success" })!.build(project, "Someone", "t", undefined) as Record<string, any>;
    expect(ok.subject).toBe("app | Successful pipeline for main | 01234567");
  });
  test("tag pipelines are filtered by the branch selection too (no tag exception, unlike the chat notifiers)", () => {
    expect(describeEvent("pipelines-email", Runners.events.pipelineFinished.name, { ...p, tag: true, ref: "v1" })!.branch).toBe("v1");
    expect(describeEvent("slack", Runners.events.pipelineFinished.name, { ...p, tag: true, ref: "v1" })!.branch).toBeUndefined();
  });
});
