import { Repositories } from "@collab/repositories-contract";
import { withUsers } from "../hooks/enrich";
import { describeHookEvent } from "../hooks/events";
import type { JiraMessage } from "./jira";
import { describeEvent } from "./notifier.consumers";

/** What the notifiers and webhooks make of the repositories' push events (real commits). */
const project = { id: 7, name: "app", namespace_name: "team", visibility: "private", path_with_namespace: "team/app", web_url: "http://h/team/app", group_ids: [1], default_branch: "main" };
const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const ZERO = "0".repeat(40);
const commit = (id: string, message: string) => ({ id, message, title: message.split("\n")[0], timestamp: "2026-01-02T03:04:05Z", url: `http://elsewhere/${id}`, author: { name: "Ann", email: "ann@example.com" } });
const branchPush = (branch: string, commits: ReturnType<typeof commit>[], over: Record<string, unknown> = {}) => ({
  projectId: 7,
  ref: `refs/heads/${branch}`,
  branch,
  before: A,
  after: commits.at(-1)?.id ?? ZERO,
  userId: 2,
  userUsername: "ann",
  commits,
  totalCommitsCount: commits.length,
  commitCount: commits.length,
  commitTitle: commits.at(-1)?.title ?? "",
  ...over,
});
const ann = { id: 2, username: "ann", name: "Ann", avatar_url: null, state: "active", web_url: "http://h/ann" };

describe("webhooks: Push Hook and Tag Push Hook", () => {
  test("the pushed commits with the project's commit URLs, their count, checkout_sha and the pusher", () => {
    const facts = describeHookEvent(Repositories.events.branchPushed.name, branchPush("main", [commit(B, "Start"), commit(C, "Fix totals\n\nbody")], { totalCommitsCount: 30 }))!;
    expect(facts).toMatchObject({ projectId: 7, flag: "push_events", actorId: 2, branch: "main" });
    const body = facts.build(project, withUsers([ann as never]));
    expect(body).toMatchObject({ object_kind: "push", ref: "refs/heads/main", before: A, after: C, checkout_sha: C, user_id: 2, user_username: "ann", user_name: "Ann", total_commits_count: 30 });
    expect(body.commits).toEqual([
      { id: B, message: "Start", title: "Start", timestamp: "2026-01-02T03:04:05Z", url: `http://h/team/app/-/commit/${B}`, author: { name: "Ann", email: "ann@example.com" } },
      expect.objectContaining({ id: C, message: "Fix totals\n\nbody", url: `http://h/team/app/-/commit/${C}` }),
    ]);
  });

  test("a removed branch: no checkout_sha, no commits; a pusher deleted since keeps the username of the event", () => {
    const body = describeHookEvent(Repositories.events.branchPushed.name, branchPush("old", [], { after: ZERO }))!.build(project, withUsers([]));
    expect(body).toMatchObject({ checkout_sha: null, commits: [], total_commits_count: 0, user_username: "ann" });
  });

  test("a tag: Tag Push Hook with the tagged commit", () => {
    const facts = describeHookEvent(Repositories.events.tagPushed.name, { ...branchPush("x", [commit(B, "Release")]), branch: undefined, ref: "refs/tags/v1", tag: "v1", before: ZERO })!;
    expect(facts).toMatchObject({ flag: "tag_push_events", branch: undefined });
    expect(facts.build(project, withUsers([ann as never]))).toMatchObject({ object_kind: "tag_push", ref: "refs/tags/v1", total_commits_count: 1, commits: [{ id: B, title: "Release" }] });
  });
});

describe("Jira: pushed commits", () => {
  const jira = (payload: unknown) => describeEvent("jira", Repositories.events.branchPushed.name, payload)!.build(project, "Ann", "t", undefined, {}) as unknown as JiraMessage;

  test("each commit's whole message mentions; on the default branch its Closes closes", () => {
    const m = jira(branchPush("main", [commit(B, "PROJ-1 start"), commit(C, "Fix totals\n\nCloses PROJ-2")]));
    expect(m.mentions.map((x) => [x.key, x.entity.url, x.entity.ref, x.gate])).toEqual([
      ["PROJ-1", `http://h/team/app/-/commit/${B}`, B.slice(0, 8), "commit_events"],
      ["PROJ-2", `http://h/team/app/-/commit/${C}`, C.slice(0, 8), "commit_events"],
    ]);
    expect(m.closes).toEqual([{ key: "PROJ-2", commitId: C, commitUrl: `http://h/team/app/-/commit/${C}` }]);
  });

  test("on another branch nothing closes; a push without new commits tells nothing", () => {
    expect(jira(branchPush("side", [commit(C, "Closes PROJ-2")])).closes).toEqual([]);
    expect(describeEvent("jira", Repositories.events.branchPushed.name, branchPush("main", [], { after: B }))).toBeNull();
  });
});

test("chat notifiers list the pushed commits under the push", () => {
  const facts = describeEvent("slack", Repositories.events.branchPushed.name, branchPush("main", [commit(B, "Start"), commit(C, "Fix totals")]))!;
  const body = facts.build(project, "Ann", "t", undefined, {}) as { text: string; attachments: { title: string; text: string }[] };
  expect(body.text).toContain("Ann pushed to branch main");
  expect(body.attachments[0]).toMatchObject({ title: "Fix totals", text: `${B.slice(0, 8)}: Start - Ann\n${C.slice(0, 8)}: Fix totals - Ann` });
});
