import { call } from "@collab/core";
import { Integrations } from "@collab/integrations-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Repositories } from "@collab/repositories-contract";
import { addMember, apiClient, assertStatus as ok, createGroup, createProject, createUser, eventually, GitClient, ProjectClone, startMailbox, type ApiClient, type Mailbox, type TestApp, type TestUser } from "@collab/testing";
import { Gitlab } from "@gitbeaker/rest";
import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startApp } from "@collab/standalone/test/app";

/**
 * Emails on push and Jira, end to end: pushes, branches and tags mailed to a real SMTP receiver
 * (subject, recipients, sender, headers, text and HTML parts); a fake Jira answering its REST API
 * receives the cross-reference comments and remote links of mentions in merge requests, commits and
 * comments, and the transition of the issues a merged merge request closes, with GitLab's
 * authentication headers; closes_issues lists Jira's issues; every delivery is recorded with its
 * response code and duration; refused when local requests are not allowed.
 *
 * World: group "team" with project "app" (default branch main); maint (40), dev (30) of the group.
 */
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";

let app: TestApp;
let root: ApiClient;
let maint: TestUser;
let dev: TestUser;
let project: { id: number; web_url: string; path_with_namespace: string };
let git: GitClient;
let mailbox: Mailbox;

interface JiraIssue {
  id: string;
  resolution: unknown;
  comments: { body: string }[];
  links: { id: number; object: { url: string } }[];
}
interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}
let jiraServer: http.Server;
let jiraUrl: string;
let issues: Record<string, JiraIssue>;
let received: Received[];

/** A Jira's REST API (v2) as far as GitLab uses it: issues with comments, remote links and a "done" transition. */
function answer(req: Received): [number, unknown] {
  const [, ref, rest = ""] = req.path.match(/^\/rest\/api\/2\/issue\/([^/?]+)(.*)$/) ?? [];
  const found = Object.entries(issues).find(([key, i]) => key === ref || i.id === ref);
  if (!found) return [404, { errorMessages: ["Issue Does Not Exist"], errors: {} }];
  const [key, issue] = found;
  if (req.method === "GET" && rest === "/remotelink") return [200, issue.links];
  if (req.method === "GET") {
    const transitions = rest.includes("expand=transitions") ? { transitions: [{ id: "21", name: "In Progress", to: { statusCategory: { key: "indeterminate" } } }, { id: "31", name: "Done", to: { statusCategory: { key: "done" } } }] } : {};
    return [200, { id: issue.id, key, fields: { summary: key, resolution: issue.resolution, comment: { comments: issue.comments } }, ...transitions }];
  }
  if (req.method === "POST" && rest === "/comment") {
    issue.comments.push({ body: req.body.body });
    return [201, { id: String(issue.comments.length), body: req.body.body }];
  }
  if (req.method === "POST" && rest === "/remotelink") {
    issue.links.push({ id: 100 + issue.links.length, object: req.body.object });
    return [201, { id: 100 + issue.links.length - 1, self: `${jiraUrl}${req.path}/${100 + issue.links.length - 1}` }];
  }
  const linkId = rest.match(/^\/remotelink\/(\d+)$/)?.[1];
  if (req.method === "PUT" && linkId) {
    const link = issue.links.find((l) => String(l.id) === linkId);
    if (!link) return [404, null];
    link.object = req.body.object;
    return [204, null];
  }
  if (req.method === "POST" && rest === "/transitions") {
    if (req.body.transition.id === "31") issue.resolution = { name: "Done" };
    return [204, null];
  }
  return [405, null];
}

beforeAll(async () => {
  mailbox = await startMailbox();
  app = await startApp("integrations-trackers");
  git = new GitClient();
  jiraServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const r: Received = { method: req.method!, path: req.url!, headers: req.headers, body: text ? JSON.parse(text) : undefined };
      received.push(r);
      const [status, body] = answer(r);
      res.writeHead(status, body === null ? {} : { "content-type": "application/json" }).end(body === null ? undefined : JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => jiraServer.listen(0, "127.0.0.1", r));
  jiraUrl = `http://127.0.0.1:${(jiraServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  git.cleanUp();
  await new Promise<void>((r) => jiraServer.close(() => r()));
  await app.stop();
  await mailbox.stop();
});
beforeEach(async () => {
  await app.reset();
  received = [];
  issues = {
    "PROJ-1": { id: "10001", resolution: null, comments: [], links: [] },
    "PROJ-2": { id: "10002", resolution: null, comments: [], links: [] },
  };
  root = apiClient(app.url, app.rootToken);
  const team = await createGroup(root, "team", "team", { visibility: "private" });
  project = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  maint = await createUser(app, "maint");
  dev = await createUser(app, "dev");
  await addMember(app, "groups", team.id, maint.id, 40);
  await addMember(app, "groups", team.id, dev.id, 30);
  ok(await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: true } }), 200, "settings");
});

const gitlab = (u: TestUser) => new Gitlab({ host: app.url, token: u.token });
const setUp = (slug: string, params: Record<string, unknown>) => gitlab(maint).Integrations.edit(project.id, slug as never, params as never);
const tick = () => call(app.broker, Integrations.deliveries.tick, {});
const deliveries = async () =>
  ((await app.database.db.execute(sql`SELECT slug, event_name, status, response_code, execution_duration, error FROM integrations.integration_deliveries ORDER BY id`)) as unknown as { rows: Record<string, any>[] }).rows;
/** Ticks the delivery worker until `check` passes (events reach the worker a moment after the request). */
const until = <T>(check: () => T | Promise<T>) =>
  eventually(async () => {
    await tick();
    return check();
  });
/** Every delivery handled: none new or pending. */
const settled = async () => expect((await deliveries()).filter((d) => d.status === "new" || d.status === "pending")).toEqual([]);
const mailsTo = async (to: string) => (await mailbox.mails()).filter((m) => m.to.includes(to));
/** The mail to `to` with this subject, once it came. */
const mailed = (to: string, subject: string) =>
  until(async () => {
    const found = (await mailsTo(to)).find((m) => m.subject === subject);
    expect(found).toBeDefined();
    return found!;
  });
/** A commit pushed with git by `as` to `branch` (made from `start` when given): its sha as `id`. */
async function commit(as: TestUser, branch: string, message: string, start?: string): Promise<{ id: string }> {
  const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, as);
  const id = await clone.commit(branch, message, start ? { from: `origin/${start}` } : {});
  await clone.pushOk(branch);
  return { id };
}
const calls = () => received.map((r) => `${r.method} ${r.path}`);

describe("emails on push", () => {
  test("a pushed commit, a new branch and a new tag are mailed to each recipient: subject, sender, headers, text and HTML; recorded with 250 and a duration", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const [a, b] = [`push-a-${tag}@example.com`, `push-b-${tag}@example.com`];
    const set = (await setUp("emails-on-push", { recipients: `${a} ${b}` })) as unknown as Record<string, any>;
    expect(set).toMatchObject({ slug: "emails-on-push", active: true, push_events: true, tag_push_events: true, properties: { recipients: `${a} ${b}`, branches_to_be_notified: "all", disable_diffs: false } });

    const pushed = await commit(maint, "main", "Fix totals\n\nThe long story.");
    const mail = await mailed(a, "[Git][team/app][main] Fix totals");
    expect(mail.subject).toBe("[Git][team/app][main] Fix totals");
    expect(mail.to).toEqual([a]);
    expect(mail.from).toMatch(/^"?maint \(@maint\)"? <noreply@/);
    expect(mail.headers).toMatchObject({ "x-gitlab-project": "app", "x-gitlab-project-id": String(project.id), "x-gitlab-project-path": "team/app", "x-gitlab-author": "maint" });
    expect(mail.text).toContain("maint pushed to branch main at team/app");
    expect(mail.text).toContain(`${pushed.id.slice(0, 8)} ( ${project.web_url}/-/commit/${pushed.id} )\nFix totals`);
    expect(mail.text).toContain("The long story.");
    expect(mail.html).toContain(`href="${project.web_url}/-/commit/${pushed.id}"`);
    await mailed(b, "[Git][team/app][main] Fix totals");
    expect(await deliveries()).toContainEqual({ slug: "emails-on-push", event_name: Repositories.events.branchPushed.name, status: "delivered", response_code: 250, execution_duration: expect.any(Number), error: null });

    const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, maint);
    await clone.pushOk("main:refs/heads/feature");
    await clone.run(["tag", "v1.0", "main"]);
    await clone.pushOk("v1.0");
    // The project's first commit may be told after the set-up: its "Pushed new branch main" is left aside.
    const ours = async () => (await mailsTo(a)).map((m) => m.subject).filter((subject) => subject !== "[Git][team/app] Pushed new branch main");
    const subjects = await until(async () => {
      const mine = await ours();
      expect(mine).toHaveLength(3);
      return mine;
    });
    expect(subjects).toEqual(["[Git][team/app][main] Fix totals", "[Git][team/app] Pushed new branch feature", "[Git][team/app] Pushed new tag v1.0"]);
  });

  test("branches_to_be_notified and tag_push_events: another branch is left out with default, tags follow their flag", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const to = `push-only-${tag}@example.com`;
    await setUp("emails-on-push", { recipients: to, branches_to_be_notified: "default", tag_push_events: false });
    await commit(maint, "side", "On the side", "main");
    const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, maint);
    await clone.run(["tag", "v2.0", "origin/main"]);
    await clone.pushOk("v2.0");
    await commit(maint, "main", "On main");
    await mailed(to, "[Git][team/app][main] On main");
    await until(settled);
    expect((await mailsTo(to)).map((m) => m.subject).filter((subject) => subject !== "[Git][team/app] Pushed new branch main")).toEqual(["[Git][team/app][main] On main"]);
  });
});

describe("Jira", () => {
  const basic = `Basic ${Buffer.from("jira-bot:jira-s3cret").toString("base64")}`;
  const setUpJira = (extra: Record<string, unknown> = {}) => setUp("jira", { url: jiraUrl, username: "jira-bot", password: "jira-s3cret", ...extra });

  test("a merge request mentioning issues: each gets GitLab's comment and remote link (Basic auth); closes_issues lists the one it closes; the merge transitions it", async () => {
    const set = (await setUpJira({ jira_issue_transition_automatic: true })) as unknown as Record<string, any>;
    expect(set).toMatchObject({ slug: "jira", active: true, commit_events: true, merge_requests_events: true, comment_on_event_enabled: true });
    expect(JSON.stringify(set)).not.toContain("jira-s3cret");

    await commit(dev, "feature", "Work on totals", "main");
    received = [];
    const mr = ok(await dev.api.post(`/projects/${project.id}/merge_requests`, { json: { title: "PROJ-1: totals", description: "Closes PROJ-2", source_branch: "feature", target_branch: "main" } }), 201, "mr").body;
    const mrUrl = `${project.web_url}/-/merge_requests/${mr.iid}`;
    const mentionedIn = (title: string) => `mentioned this issue in [a merge request|${mrUrl}] of [team/app|${project.web_url}] on branch [feature|${project.web_url}/-/tree/feature]:{quote}${title}{quote}`;
    await until(() => expect(calls()).toHaveLength(8));
    const jiraCalls = received;
    expect(calls()).toEqual([
      "GET /rest/api/2/issue/PROJ-1",
      "GET /rest/api/2/issue/10001/remotelink",
      "POST /rest/api/2/issue/10001/comment",
      "POST /rest/api/2/issue/10001/remotelink",
      "GET /rest/api/2/issue/PROJ-2",
      "GET /rest/api/2/issue/10002/remotelink",
      "POST /rest/api/2/issue/10002/comment",
      "POST /rest/api/2/issue/10002/remotelink",
    ]);
    for (const r of jiraCalls) expect(r.headers).toMatchObject({ authorization: basic, cookie: "OBBasicAuth=fromDialog" });
    expect(jiraCalls[2].headers["content-type"]).toBe("application/json");
    expect(jiraCalls[2].body.body).toMatch(/^\[dev\|http.*\/dev\] /);
    expect(jiraCalls[2].body.body).toContain(mentionedIn("PROJ-1: totals"));
    expect(jiraCalls[3].body).toEqual({ GlobalID: "GitLab", relationship: "mentioned on", object: { url: mrUrl, title: "Merge request - PROJ-1: totals", status: { resolved: false }, icon: { title: "GitLab", url16x16: expect.stringMatching(/^http.*\/favicon\.ico$/) } } });
    await until(settled);
    expect((await deliveries()).filter((d) => d.slug === "jira")).toEqual([{ slug: "jira", event_name: MergeRequests.events.mergeRequestOpened.name, status: "delivered", response_code: 201, execution_duration: expect.any(Number), error: null }]);

    // closes_issues: Jira's issue as Entities::ExternalIssue.
    const closes = await gitlab(dev).MergeRequests.allIssuesClosed(project.id, mr.iid);
    expect(closes).toEqual([{ id: "PROJ-2", title: "External Issue PROJ-2" }]);

    received = [];
    const merged = ok(await maint.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`), 200, "merge").body;
    const commitUrl = `${project.web_url}/-/commit/${merged.sha}`;
    // The merge transitions PROJ-2; the merge commit, pushed to the default branch with the merge
    // request's title and description in its message, mentions PROJ-1 too (PROJ-2, solved by then,
    // is not transitioned twice). The two come from two events, in either order.
    await until(() => expect(calls()).toHaveLength(10));
    const ofProj2 = (r: { path: string }) => r.path.includes("PROJ-2") || r.path.includes("/10002/");
    const solving = received.filter(ofProj2);
    expect(solving.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /rest/api/2/issue/PROJ-2?expand=transitions",
      "POST /rest/api/2/issue/10002/transitions",
      "GET /rest/api/2/issue/PROJ-2",
      "GET /rest/api/2/issue/10002/remotelink",
      "POST /rest/api/2/issue/10002/comment",
      "POST /rest/api/2/issue/10002/remotelink",
    ]);
    expect(solving[1].body).toEqual({ transition: { id: "31" } });
    expect(solving[4].body).toEqual({ body: `Issue solved with [${merged.sha}|${commitUrl}].` });
    expect(solving[5].body.object).toMatchObject({ url: commitUrl, title: `Solved by commit ${merged.sha}.`, status: { resolved: true } });
    const mentioning = received.filter((r) => !ofProj2(r));
    expect(mentioning.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /rest/api/2/issue/PROJ-1",
      "GET /rest/api/2/issue/10001/remotelink",
      "POST /rest/api/2/issue/10001/comment",
      "POST /rest/api/2/issue/10001/remotelink",
    ]);
    expect(mentioning[3].body.object).toMatchObject({ url: `${project.web_url}/-/commit/${merged.merge_commit_sha}` });
    expect(issues["PROJ-2"].resolution).toEqual({ name: "Done" });
  });

  test("a Jira personal access token (Bearer); comments off: the link only; commits and comments mention too; commit_events off leaves pushes out", async () => {
    await setUpJira({ jira_auth_type: 1, username: "", password: "pat-token", comment_on_event_enabled: false });
    expect(((await gitlab(maint).Integrations.show(project.id, "jira")) as unknown as Record<string, unknown>).comment_on_event_enabled).toBe(false);
    const pushed = await commit(maint, "main", "PROJ-1 fix totals");
    await until(() => expect(calls()).toHaveLength(3));
    expect(calls()).toEqual(["GET /rest/api/2/issue/PROJ-1", "GET /rest/api/2/issue/10001/remotelink", "POST /rest/api/2/issue/10001/remotelink"]);
    expect(received[0].headers.authorization).toBe("Bearer pat-token");
    expect(received[0].headers.cookie).toBeUndefined();
    expect(received[2].body.object).toMatchObject({ url: `${project.web_url}/-/commit/${pushed.id}`, title: "Commit - PROJ-1 fix totals" });

    received = [];
    const issue = ok(await dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Totals" } }), 201, "issue").body;
    ok(await dev.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { json: { body: "Tracked as PROJ-2" } }), 201, "note");
    await until(() => expect(calls()).toHaveLength(3));
    expect(calls()).toEqual(["GET /rest/api/2/issue/PROJ-2", "GET /rest/api/2/issue/10002/remotelink", "POST /rest/api/2/issue/10002/remotelink"]);
    expect(received[2].body.object).toMatchObject({ url: `${project.web_url}/-/issues/${issue.iid}`, title: "Issue - Totals" });

    received = [];
    await setUpJira({ jira_auth_type: 1, username: "", password: "pat-token", commit_events: false });
    await commit(maint, "main", "PROJ-2 again");
    ok(await dev.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { json: { body: "PROJ-2 once more" } }), 201, "note");
    // The comment is delivered (issues are not gated by commit_events); the push before it left nothing.
    await until(() => expect(calls()).toContain("GET /rest/api/2/issue/PROJ-2"));
    await until(settled);
    expect(calls()).toEqual(["GET /rest/api/2/issue/PROJ-2", "GET /rest/api/2/issue/10002/remotelink", "PUT /rest/api/2/issue/10002/remotelink/100"]);
  });

  test("a push: each pushed commit's message mentions issues; Closes on the default branch transitions them, not on another branch", async () => {
    await setUpJira({ jira_issue_transition_automatic: true });
    const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, maint);
    const first = await clone.commit("main", "PROJ-1 start totals");
    const second = await clone.commit("main", "Fix totals\n\nCloses PROJ-2");
    await clone.pushOk("main");
    // The closing comes last in the delivery: the commit's link (made by its mention) becomes the resolved "Solved by commit" one.
    const secondUrl = `${project.web_url}/-/commit/${second}`;
    await until(() => expect(issues["PROJ-2"].links.map((l) => l.object)).toEqual([expect.objectContaining({ url: secondUrl, title: `Solved by commit ${second}.`, status: { resolved: true } })]));
    expect(issues["PROJ-2"].resolution).toEqual({ name: "Done" });
    expect(issues["PROJ-2"].comments.map((c) => c.body)).toEqual([expect.stringContaining(`mentioned this issue in [a commit|${secondUrl}]`)]);
    expect(issues["PROJ-1"].links.map((l) => l.object.url)).toEqual([`${project.web_url}/-/commit/${first}`]);

    // Off the default branch, "Closes" only mentions.
    const third = await clone.commit("side", "Closes PROJ-1", { from: "main" });
    await clone.pushOk("side");
    await until(() => expect(issues["PROJ-1"].links.map((l) => l.object.url)).toEqual([`${project.web_url}/-/commit/${first}`, `${project.web_url}/-/commit/${third}`]));
    await until(settled);
    expect(issues["PROJ-1"].resolution).toBeNull();
  });

  test("an unknown key is skipped; a Jira failing is retried (pending, its status kept); invalid settings are refused", async () => {
    await setUpJira();
    await commit(maint, "main", "NOPE-9 unknown");
    await until(async () => expect(await deliveries()).toEqual([expect.objectContaining({ status: "delivered", response_code: 404 })]));
    expect(calls()).toEqual(["GET /rest/api/2/issue/NOPE-9"]);

    const failing = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(503).end()));
    await new Promise<void>((r) => failing.listen(0, "127.0.0.1", r));
    try {
      await setUpJira({ url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}` });
      await commit(maint, "main", "PROJ-1 down");
      await until(async () => expect((await deliveries())[1]).toMatchObject({ status: "pending", response_code: 503, error: "GET issue: HTTP 503" }));
    } finally {
      await new Promise<void>((r) => failing.close(() => r()));
    }

    for (const bad of [{ jira_issue_regex: "(unclosed" }, { jira_issue_transition_id: "none" }, { jira_auth_type: 3 }, { username: "" }])
      expect({ bad, status: (await maint.api.put(`/projects/${project.id}/integrations/jira`, { json: { url: jiraUrl, username: "u", password: "p", ...bad } })).status }).toEqual({ bad, status: 400 });
  });

  test("refused by the outbound guard when local requests are not allowed: nothing reaches Jira, recorded refused", async () => {
    await setUpJira();
    ok(await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: false } }), 200, "settings");
    await commit(maint, "main", "PROJ-1 quietly");
    await until(async () => expect(await deliveries()).toEqual([expect.objectContaining({ slug: "jira", status: "refused", response_code: null, error: "Requests to localhost are not allowed" })]));
    await tick();
    expect(received).toEqual([]);
  });
});

describe("closes_issues with an external issue tracker", () => {
  test("only a merge request into the default branch closes issues; GitLab's own issues are still listed", async () => {
    const issue = ok(await dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Own" } }), 201, "issue").body;
    await commit(dev, "feature", "Work", "main");
    await commit(maint, "release", "Branch", "main");
    const intoMain = ok(await dev.api.post(`/projects/${project.id}/merge_requests`, { json: { title: "A", description: `Closes #${issue.iid} and PROJ-1`, source_branch: "feature", target_branch: "main" } }), 201, "mr").body;
    const intoRelease = ok(await dev.api.post(`/projects/${project.id}/merge_requests`, { json: { title: "B", description: `Closes #${issue.iid}`, source_branch: "feature", target_branch: "release" } }), 201, "mr").body;
    const closes = (iid: number) => dev.api.get(`/projects/${project.id}/merge_requests/${iid}/closes_issues`);
    expect((await closes(intoRelease.iid)).body).toEqual([expect.objectContaining({ iid: issue.iid })]);

    await setUp("redmine", { new_issue_url: "https://r.example.com/new", issues_url: "https://r.example.com/:id", project_url: "https://r.example.com" });
    expect((await closes(intoRelease.iid)).body).toEqual([]);
    expect((await closes(intoMain.iid)).body).toEqual([expect.objectContaining({ iid: issue.iid })]);

    await maint.api.delete(`/projects/${project.id}/integrations/redmine`);
    await setUp("jira", { url: "https://jira.example.com", username: "u", password: "p" });
    const res = await closes(intoMain.iid);
    expect(res.body).toEqual([expect.objectContaining({ iid: issue.iid }), { id: "PROJ-1", title: "External Issue PROJ-1" }]);
    expect(res.headers.get("x-total")).toBe("2");
  });
});
