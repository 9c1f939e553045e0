import { addMember, apiClient, assertStatus as ok, createProject, createUser, eventually, GitClient, type ApiClient, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";
import { Workspace } from "./git-workspace";

/**
 * Merging through the gateway: the repository side (merge and squash commits, the target head,
 * source branch removal, seen by git through the gateway), the merge request side (state,
 * merge user, state event), GitLab's refusals (401, 405, 422, 409), pushes that move the
 * source head, and the issues the description closes.
 */
let app: TestApp;
let root: ApiClient;
let git: GitClient;
let clones = 0;
beforeAll(async () => {
  app = await startApp("merge-request-merge");
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

async function seed() {
  const project = await createProject(root, { name: "api", visibility: "private", initialize_with_readme: true });
  const [maintainer, developer, reporter] = await Promise.all(["maintainer", "developer", "reporter"].map((u) => createUser(app, u)));
  await Promise.all([addMember(app, "projects", project.id, maintainer.id, 40), addMember(app, "projects", project.id, developer.id, 30), addMember(app, "projects", project.id, reporter.id, 20)]);
  // The developer's clone: their pushes go through the gateway with git.
  const ws = await Workspace.clone(git, app.url, project.path_with_namespace, developer, `merge-${++clones}`);
  return { project, maintainer, developer, reporter, ws };
}
type World = Awaited<ReturnType<typeof seed>>;

/** A commit adding `<message>.txt` on `branch` (started from `start`), pushed with git. */
const push = (w: World, branch: string, message: string, start?: string) => w.ws.commit(branch, { [`${message}.txt`]: "x" }, message, start);

/** The branch's head on the server (null when it is gone), read by git. */
async function headOf(w: World, branch: string): Promise<string | null> {
  const line = (await w.ws.ok(["ls-remote", "origin", `refs/heads/${branch}`])).trim();
  return line ? line.split("\t")[0] : null;
}

async function openMr(w: World, extra: Record<string, unknown> = {}, branch = "feature") {
  await push(w, branch, `work on ${branch}`, "main");
  return ok(await w.developer.api.post(`/projects/${w.project.id}/merge_requests`, { json: { title: "Add feature", source_branch: branch, target_branch: "main", ...extra } }), 201, "create MR").body;
}

describe("pushing commits", () => {
  it("the open merge request follows its source branch's pushes", async () => {
    const w = await seed();
    const first = await push(w, "feature", "one", "main");
    const mr = ok(await w.developer.api.post(`/projects/${w.project.id}/merge_requests`, { json: { title: "F", source_branch: "feature", target_branch: "main" } }), 201, "create").body;
    expect(mr.sha).toBe(first);
    const second = await push(w, "feature", "two");
    expect((await w.ws.ok(["log", "-1", "--format=%P", second])).trim()).toBe(first);
    await eventually(async () => expect((await w.developer.api.get(`/projects/${w.project.id}/merge_requests`)).body[0].sha).toBe(second));
  });
});

describe("PUT /merge", () => {
  it("merges: merge commit on the target, state merged, state event, source branch removed", async () => {
    const w = await seed();
    const mr = await openMr(w, { remove_source_branch: true });
    const mainBefore = await headOf(w, "main");
    const res = ok(await w.maintainer.api.put(`/projects/${w.project.id}/merge_requests/${mr.iid}/merge`, { json: { sha: mr.sha } }), 200, "merge").body;
    expect(res).toMatchObject({ state: "merged", merge_user: { username: "maintainer" }, merged_by: { username: "maintainer" }, detailed_merge_status: "not_open", squash_commit_sha: null });
    expect(res.merged_at).toEqual(expect.any(String));
    expect(await headOf(w, "main")).toBe(res.merge_commit_sha);
    await w.ws.ok(["fetch", "-q", "origin"]);
    expect((await w.ws.ok(["log", "-1", "--format=%P", res.merge_commit_sha])).trim()).toBe(`${mainBefore} ${mr.sha}`);
    expect(await w.ws.ok(["log", "-1", "--format=%B", res.merge_commit_sha])).toContain("Merge branch 'feature' into 'main'");
    expect(await headOf(w, "feature")).toBeNull();
    const events = (await app.database.db.execute(sql`SELECT state, user_id FROM merge_requests.resource_state_events WHERE merge_request_id = ${mr.id}`)) as unknown as { rows: { state: string; user_id: number }[] };
    expect(events.rows).toEqual([{ state: "merged", user_id: w.maintainer.id }]);
    expect(ok(await root.get(`/projects/${w.project.id}/merge_requests/${mr.iid}`), 200, "get").body).toMatchObject({ state: "merged", should_remove_source_branch: true, merge_status: "can_be_merged" });
  });

  it("squashes with the given messages and keeps the source branch unless asked", async () => {
    const w = await seed();
    const mr = await openMr(w);
    const res = ok(
      await w.maintainer.api.put(`/projects/${w.project.id}/merge_requests/${mr.iid}/merge`, { json: { squash: true, squash_commit_message: "Squashed", merge_commit_message: "Merged it" } }),
      200,
      "merge",
    ).body;
    expect(res.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await headOf(w, "main")).toBe(res.merge_commit_sha);
    await w.ws.ok(["fetch", "-q", "origin"]);
    expect((await w.ws.ok(["log", "-1", "--format=%B", res.merge_commit_sha])).trim()).toBe("Merged it");
    expect((await w.ws.ok(["log", "-1", "--format=%P", res.merge_commit_sha])).trim().split(" ")[1]).toBe(res.squash_commit_sha);
    expect((await w.ws.ok(["log", "-1", "--format=%s", res.squash_commit_sha])).trim()).toBe("Squashed");
    expect(await headOf(w, "feature")).toBe(mr.sha);
  });

  it("answers 401 to those who may not merge into the target branch", async () => {
    const w = await seed();
    const mr = await openMr(w);
    // main is the default branch: Maintainers merge into it (interim protected branch rule).
    expect(await w.developer.api.put(`/projects/${w.project.id}/merge_requests/${mr.iid}/merge`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await w.reporter.api.put(`/projects/${w.project.id}/merge_requests/${mr.iid}/merge`)).status).toBe(401);
    // Other branches take Developers.
    await push(w, "base", "base", "main");
    const other = ok(await w.developer.api.post(`/projects/${w.project.id}/merge_requests`, { json: { title: "To base", source_branch: "feature", target_branch: "base" } }), 201, "create").body;
    expect(other.user.can_merge).toBe(true);
    expect((await w.developer.api.put(`/projects/${w.project.id}/merge_requests/${other.iid}/merge`)).status).toBe(200);
  });

  it("answers 405 for drafts, closed merge requests, unresolved threads, and 409 on a stale sha", async () => {
    const w = await seed();
    const mr = await openMr(w, { title: "Draft: feature" });
    expect(mr).toMatchObject({ draft: true, work_in_progress: true, detailed_merge_status: "draft_status" });
    const url = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    expect(await w.maintainer.api.put(`${url}/merge`)).toMatchObject({ status: 405, body: { message: "405 Method Not Allowed" } });
    ok(await w.maintainer.api.put(url, { json: { title: "feature" } }), 200, "ready");
    expect(await w.maintainer.api.put(`${url}/merge`, { json: { sha: "0".repeat(40) } })).toMatchObject({ status: 409, body: { message: `SHA does not match HEAD of source branch: ${mr.sha}` } });
    ok(await w.maintainer.api.put(url, { json: { merge_after: "2999-01-01T00:00:00Z" } }), 200, "merge_after");
    const later = ok(await w.maintainer.api.get(url), 200, "get").body;
    expect(later.detailed_merge_status).toBe("merge_time");
    expect((await w.maintainer.api.put(`${url}/merge`)).status).toBe(405);
    ok(await w.maintainer.api.put(url, { json: { merge_after: "", state_event: "close" } }), 200, "close");
    expect((await w.maintainer.api.put(`${url}/merge`)).status).toBe(405);
  });

  it("answers 422 Branch cannot be merged when the source branch is gone", async () => {
    const w = await seed();
    const mr = await openMr(w);
    await w.ws.ok(["push", "-q", "origin", "--delete", "feature"]);
    const got = ok(await w.maintainer.api.get(`/projects/${w.project.id}/merge_requests/${mr.iid}`), 200, "get").body;
    expect(got).toMatchObject({ merge_status: "cannot_be_merged", detailed_merge_status: "commits_status" });
    expect(await w.maintainer.api.put(`/projects/${w.project.id}/merge_requests/${mr.iid}/merge`)).toMatchObject({ status: 422, body: { message: "Branch cannot be merged" } });
  });
});

describe("closing issues", () => {
  it("closes the issues the description names, with a state event and a system note, and counts the merge requests", async () => {
    const w = await seed();
    const other = await createProject(root, { name: "other", visibility: "private" });
    const hidden = await createProject(root, { name: "hidden", visibility: "private" });
    await addMember(app, "projects", other.id, w.maintainer.id, 30);
    await addMember(app, "projects", other.id, w.developer.id, 20);
    const issue = async (projectId: number, title: string) => ok(await root.post(`/projects/${projectId}/issues`, { json: { title } }), 201, "issue").body;
    const [a, b, c, d] = [await issue(w.project.id, "a"), await issue(w.project.id, "b"), await issue(other.id, "c"), await issue(hidden.id, "d")];
    const mr = await openMr(w, { description: `Closes #${a.iid}, #${b.iid} and ${other.path_with_namespace}#${c.iid}\nFixes ${hidden.path_with_namespace}#${d.iid}` });
    expect(ok(await root.get(`/projects/${w.project.id}/issues/${a.iid}`), 200, "issue").body.merge_requests_count).toBe(1);
    ok(await w.maintainer.api.put(`/projects/${w.project.id}/merge_requests/${mr.iid}/merge`), 200, "merge");
    await eventually(async () => expect(ok(await root.get(`/projects/${w.project.id}/issues/${a.iid}`), 200, "a").body.state).toBe("closed"));
    expect(ok(await root.get(`/projects/${w.project.id}/issues/${b.iid}`), 200, "b").body).toMatchObject({ state: "closed", closed_by: { username: "maintainer" } });
    expect(ok(await root.get(`/projects/${other.id}/issues/${c.iid}`), 200, "c").body.state).toBe("closed");
    // The developer who wrote the description cannot see the hidden project: its reference was dropped.
    expect(ok(await root.get(`/projects/${hidden.id}/issues/${d.iid}`), 200, "d").body.state).toBe("opened");
    const events = ok(await root.get(`/projects/${w.project.id}/issues/${a.iid}/resource_state_events`), 200, "events").body;
    expect(events.map((e: { state: string }) => e.state)).toEqual(["closed"]);
    const notes = ok(await root.get(`/projects/${w.project.id}/issues/${a.iid}/notes`), 200, "notes").body;
    expect(notes.map((n: { body: string }) => n.body)).toContain(`closed via merge request !${mr.iid}`);
    const closes = ok(await w.developer.api.get(`/projects/${w.project.id}/merge_requests/${mr.iid}/closes_issues`), 200, "closes_issues");
    expect(closes.body.map((i: { title: string }) => i.title).sort()).toEqual(["a", "b", "c"]);
    expect(closes.headers.get("x-total")).toBe("3");
    expect(ok(await w.reporter.api.get(`/projects/${w.project.id}/merge_requests/${mr.iid}/closes_issues`), 200, "reporter").body.map((i: { title: string }) => i.title).sort()).toEqual(["a", "b"]);
    const closedBy = ok(await root.get(`/projects/${other.id}/issues/${c.iid}/closed_by`), 200, "closed_by").body;
    expect(closedBy.map((m: { iid: number; project_id: number }) => [m.project_id, m.iid])).toEqual([[w.project.id, mr.iid]]);
    expect((await w.reporter.api.get(`/projects/${other.id}/issues/${c.iid}/closed_by`)).status).toBe(404);
    const cNotes = ok(await root.get(`/projects/${other.id}/issues/${c.iid}/notes`), 200, "notes").body;
    expect(cNotes.map((n: { body: string }) => n.body)).toContain(`closed via merge request ${w.project.path_with_namespace}!${mr.iid}`);
  });
});

describe("project settings and namespaces events", () => {
  it("only_allow_merge_if_all_discussions_are_resolved blocks a merge while a thread is unresolved", async () => {
    const w = await seed();
    const mr = await openMr(w);
    const url = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    const thread = ok(await w.developer.api.post(`${url}/discussions`, { json: { body: "please fix" } }), 201, "thread").body;
    // Off by default: the thread does not block.
    expect(ok(await root.get(url), 200, "get").body).toMatchObject({ detailed_merge_status: "mergeable", blocking_discussions_resolved: true });
    const settings = ok(await root.put(`/projects/${w.project.id}`, { json: { only_allow_merge_if_all_discussions_are_resolved: true, squash_option: "always", remove_source_branch_after_merge: false } }), 200, "settings").body;
    expect(settings).toMatchObject({ only_allow_merge_if_all_discussions_are_resolved: true, squash_option: "always", remove_source_branch_after_merge: false });
    expect(ok(await root.get(url), 200, "get").body).toMatchObject({ detailed_merge_status: "discussions_not_resolved", blocking_discussions_resolved: false });
    expect((await w.maintainer.api.put(`${url}/merge`)).status).toBe(405);
    ok(await w.developer.api.put(`${url}/discussions/${thread.id}`, { json: { resolved: true } }), 200, "resolve");
    // squash_option=always squashes whatever the request says.
    expect(ok(await w.maintainer.api.put(`${url}/merge`, { json: { squash: false } }), 200, "merge").body.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it("follows the deletion of labels, milestones and projects", async () => {
    const w = await seed();
    const milestone = ok(await root.post(`/projects/${w.project.id}/milestones`, { json: { title: "v1" } }), 201, "milestone").body;
    const mr = await openMr(w, { labels: "doomed,kept", milestone_id: milestone.id });
    const label = ok(await root.get(`/projects/${w.project.id}/labels/doomed`), 200, "label").body;
    ok(await root.delete(`/projects/${w.project.id}/labels/${label.id}`), 204, "delete label");
    ok(await root.delete(`/projects/${w.project.id}/milestones/${milestone.id}`), 204, "delete milestone");
    await eventually(async () => expect(ok(await root.get(`/projects/${w.project.id}/merge_requests/${mr.iid}`), 200, "get").body).toMatchObject({ labels: ["kept"], milestone: null }));
    const count = async () =>
      Number(((await app.database.db.execute(sql`SELECT count(*)::int AS n FROM merge_requests.merge_requests WHERE project_id = ${w.project.id}`)) as unknown as { rows: { n: number }[] }).rows[0].n);
    expect(await count()).toBe(1);
    ok(await root.delete(`/projects/${w.project.id}`), 202, "mark");
    ok(await root.delete(`/projects/${w.project.id}`, { query: { permanently_remove: true, full_path: w.project.path_with_namespace } }), 202, "delete project");
    await eventually(async () => expect(await count()).toBe(0));
  });
});
