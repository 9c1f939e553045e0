import { Gitlab } from "@gitbeaker/rest";
import { call } from "@collab/core";
import { Integrations } from "@collab/integrations-contract";
import { Runners } from "@collab/runners-contract";
import { addMember, apiClient, createGroup, createProject, createUser, eventually, GitClient, ProjectClone, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startApp } from "@collab/standalone/test/app";

/**
 * Project and group webhooks (GitLab's project_hooks.rb, group_hooks.rb, hooks/*.rb): CRUD through
 * @gitbeaker/rest's ProjectHooks and GroupHooks, validation and the outbound guard, who may manage
 * them, write-only secrets; deliveries of issue, note, merge request and push events to a local
 * receiver with GitLab's headers and payloads, in order; auto-disabling after failures; the test
 * endpoint, recent events and resend.
 *
 * World: private group "team" (subgroup "team/sub", project "app" in it) and a public project
 * "pub" in "team"; owner (50), maint (40), dev (30) of "team"; outsider.
 */
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";

let app: TestApp;
let git: GitClient;
let root: ApiClient;
const U = {} as Record<"owner" | "maint" | "dev" | "outsider", TestUser>;
let team: { id: number };
let sub: { id: number };
let project: { id: number; web_url: string; path_with_namespace: string };
let pub: { id: number };

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}
let received: Received[] = [];
/** What the receiver answers next (status codes, in order; 200 once they run out). */
let answers: number[] = [];
let server: http.Server;
let receiverUrl: string;

const TOKEN = "s3cret-hook-token";
const HEADER_VALUE = "header-secret-value";

beforeAll(async () => {
  app = await startApp("webhooks");
  git = new GitClient();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") });
      res.writeHead(answers.shift() ?? 200, { "content-type": "text/plain", "x-receiver": "yes" });
      res.end("thanks");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
beforeEach(async () => {
  await app.reset();
  received = [];
  answers = [];
  root = apiClient(app.url, app.rootToken);
  team = await createGroup(root, "team", "team", { visibility: "public" });
  sub = await createGroup(root, "sub", "sub", { visibility: "private", parent_id: team.id });
  project = await createProject(root, { name: "app", namespace_id: sub.id, visibility: "private", initialize_with_readme: true });
  pub = await createProject(root, { name: "pub", namespace_id: team.id, visibility: "public" });
  for (const [name, level] of Object.entries({ owner: 50, maint: 40, dev: 30 })) {
    U[name as keyof typeof U] = await createUser(app, name);
    await addMember(app, "groups", team.id, U[name as keyof typeof U].id, level);
  }
  U.outsider = await createUser(app, "outsider");
  await allowLocal(true);
});
afterAll(async () => {
  git.cleanUp();
  await new Promise<void>((r) => server.close(() => r()));
  await app.stop();
});

const allowLocal = async (allow: boolean) => expect((await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: allow } })).status).toBe(200);
const gl = (u: TestUser) => new Gitlab({ host: app.url, token: u.token });
const tick = () => call(app.broker, Integrations.deliveries.tick, {});
const rows = async <T>(query: ReturnType<typeof sql>) => ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const deliveries = () => rows<{ slug: string; event_name: string; status: string; attempts: number; response_code: number | null }>(sql`SELECT slug, event_name, status, attempts, response_code FROM integrations.integration_deliveries ORDER BY id`);
/** Ticks until the receiver has `n` requests (events reach the integrations service shortly after the answer). */
const receive = (n: number) =>
  eventually(async () => {
    await tick();
    expect(received).toHaveLength(n);
  });
const P = (path = "") => `/projects/${project.id}/hooks${path}`;

describe("project hooks: CRUD, validation and secrets", () => {
  test("add, list, show, edit and remove through gitbeaker; token and header values never shown", async () => {
    const api = gl(U.maint).ProjectHooks;
    const created = (await api.add(project.id, receiverUrl, {
      name: "CI bridge",
      description: "tells CI",
      token: TOKEN,
      issuesEvents: true,
      pushEvents: false,
      pushEventsBranchFilter: "main",
      customHeaders: [{ key: "X-Custom", value: HEADER_VALUE }],
    } as never)) as unknown as Record<string, unknown>;
    expect(created).toMatchObject({
      url: receiverUrl,
      name: "CI bridge",
      description: "tells CI",
      project_id: project.id,
      push_events: false,
      issues_events: true,
      tag_push_events: false,
      confidential_issues_events: false,
      merge_requests_events: false,
      note_events: false,
      confidential_note_events: false,
      job_events: false,
      pipeline_events: false,
      wiki_page_events: false,
      deployment_events: false,
      releases_events: false,
      emoji_events: false,
      resource_access_token_events: false,
      enable_ssl_verification: true,
      alert_status: "executable",
      disabled_until: null,
      push_events_branch_filter: "main",
      branch_filter_strategy: "wildcard",
      custom_headers: [{ key: "X-Custom" }],
      url_variables: [],
    });
    expect(created).not.toHaveProperty("member_events");
    expect(created).not.toHaveProperty("token");
    const id = created.id as number;

    const listed = (await api.all(project.id)) as unknown as Record<string, unknown>[];
    expect(listed.map((h) => h.id)).toEqual([id]);
    const edited = (await api.edit(project.id, id, `${receiverUrl}?v=2`, { noteEvents: true, branchFilterStrategy: "all_branches" } as never)) as unknown as Record<string, unknown>;
    expect(edited).toMatchObject({ url: `${receiverUrl}?v=2`, note_events: true, issues_events: true, name: "CI bridge", branch_filter_strategy: "all_branches", push_events_branch_filter: null });
    expect((await api.show(project.id, id)) as unknown).toMatchObject({ id, note_events: true });

    // Nothing the API answers carries a write-only value; they are sealed at rest.
    for (const res of [await U.maint.api.get(P()), await U.maint.api.get(P(`/${id}`))]) {
      expect(res.text).not.toContain(TOKEN);
      expect(res.text).not.toContain(HEADER_VALUE);
    }
    const [stored] = await rows<{ token: string; custom_headers: string }>(sql`SELECT token, custom_headers::text FROM integrations.web_hooks`);
    expect(stored.token).not.toContain(TOKEN);
    expect(stored.custom_headers).not.toContain(HEADER_VALUE);

    await api.remove(project.id, id);
    expect((await U.maint.api.get(P(`/${id}`))).status).toBe(404);
    expect((await U.maint.api.get(P(`/${id}`))).body).toEqual({ message: "404 Not found" });
    expect(await api.all(project.id)).toEqual([]);
  });

  test("validation: url missing or invalid, local URL refused unless allowed, branch filter, empty edit, another project's hook", async () => {
    const maint = U.maint.api;
    expect(await maint.post(P(), { json: {} })).toMatchObject({ status: 400, body: { error: "url is missing" } });
    expect(await maint.post(P(), { json: { url: "ftp://example.com/x" } })).toMatchObject({ status: 422, body: { error: "Invalid url given" } });
    expect(await maint.post(P(), { json: { url: "not a url" } })).toMatchObject({ status: 422, body: { error: "Invalid url given" } });
    expect(await maint.post(P(), { json: { url: receiverUrl, branch_filter_strategy: "regex", push_events_branch_filter: "(" } })).toMatchObject({ status: 422, body: { error: "Invalid branch filter given" } });
    expect(await maint.post(P(), { json: { url: receiverUrl, branch_filter_strategy: "sometimes" } })).toMatchObject({ status: 400, body: { error: "branch_filter_strategy does not have a valid value" } });
    expect(await maint.post(P(), { json: { url: "https://example.com/{path}" } })).toMatchObject({ status: 422, body: { message: { url: ['Invalid URL template. Missing keys: ["path"]'] } } });
    const templated = await maint.post(P(), { json: { url: "https://example.com/{path}", url_variables: [{ key: "path", value: "hidden-part" }] } });
    expect(templated).toMatchObject({ status: 201, body: { url: "https://example.com/{path}", url_variables: [{ key: "path" }] } });
    expect(templated.text).not.toContain("hidden-part");

    expect(await maint.post(P(), { json: { url: receiverUrl, custom_headers: [{ key: "X-Split", value: "a\r\nX-Evil: 1" }] } })).toMatchObject({
      status: 422,
      body: { error: "Custom headers validation failed: must be a valid json schema" },
    });
    await allowLocal(false);
    expect(await maint.post(P(), { json: { url: receiverUrl } })).toMatchObject({ status: 422, body: { error: "Invalid url given" } });
    expect(await maint.post(P(), { json: { url: "http://localhost:9/x" } })).toMatchObject({ status: 422, body: { error: "Invalid url given" } });
    await allowLocal(true);
    const hook = await maint.post(P(), { json: { url: receiverUrl } });
    expect(hook.status).toBe(201);
    expect(hook.body.push_events).toBe(true);
    expect(await maint.put(P(`/${hook.body.id}`), { json: {} })).toMatchObject({ status: 400, body: { error: "No parameters provided" } });
    // A hook of another project, named through this one, is not found; nothing changes.
    expect((await maint.put(`/projects/${pub.id}/hooks/${hook.body.id}`, { json: { url: "https://example.com" } })).status).toBe(404);
    expect((await maint.delete(`/projects/${pub.id}/hooks/${hook.body.id}`)).status).toBe(404);
    expect((await maint.get(P(`/${hook.body.id}`))).body.url).toBe(receiverUrl);
  });

  test("who may manage hooks: maintainers of the project; 401 anonymous, 404 unreadable, 403 below maintainer", async () => {
    const hook = (await U.maint.api.post(P(), { json: { url: receiverUrl } })).body as { id: number };
    const anon = apiClient(app.url);
    const cases: [ApiClient, number, number][] = [
      // [caller, on the private project, on the public one]
      [anon, 401, 401],
      [U.outsider.api, 404, 403],
      [U.dev.api, 403, 403],
    ];
    for (const [who, onPrivate, onPublic] of cases) {
      expect((await who.get(P())).status).toBe(onPrivate);
      expect((await who.get(P(`/${hook.id}`))).status).toBe(onPrivate);
      expect((await who.post(P(), { json: { url: receiverUrl } })).status).toBe(onPrivate);
      expect((await who.delete(P(`/${hook.id}`))).status).toBe(onPrivate);
      expect((await who.get(`/projects/${pub.id}/hooks`)).status).toBe(onPublic);
      expect((await who.post(`/projects/${pub.id}/hooks`, { json: { url: receiverUrl } })).status).toBe(onPublic);
    }
    expect((await U.maint.api.get(`/projects/${pub.id}/hooks`)).status).toBe(200);
    expect((await U.owner.api.get(P())).body).toHaveLength(1);
    expect(await rows(sql`SELECT id FROM integrations.web_hooks`)).toHaveLength(1);
  });
});

describe("group hooks", () => {
  test("owners manage them (gitbeaker GroupHooks); maintainers 403; group-only triggers shown", async () => {
    const created = (await gl(U.owner).GroupHooks.add(team.id, receiverUrl, { memberEvents: true, subgroupEvents: true, token: TOKEN } as never)) as unknown as Record<string, unknown>;
    expect(created).toMatchObject({ group_id: team.id, member_events: true, subgroup_events: true, push_events: true, alert_status: "executable" });
    expect(created).not.toHaveProperty("token");
    expect(created).not.toHaveProperty("project_id");
    expect(((await gl(U.owner).GroupHooks.all(team.id)) as unknown as unknown[]).length).toBe(1);
    expect((await U.maint.api.get(`/groups/${team.id}/hooks`)).status).toBe(403);
    expect((await U.maint.api.post(`/groups/${team.id}/hooks`, { json: { url: receiverUrl } })).status).toBe(403);
    expect((await U.outsider.api.get(`/groups/${team.id}/hooks`)).status).toBe(403);
    expect((await apiClient(app.url).get(`/groups/${team.id}/hooks`)).status).toBe(401);
  });

  test("a group hook gets the events of its subgroups' projects", async () => {
    await U.owner.api.post(`/groups/${team.id}/hooks`, { json: { url: receiverUrl, push_events: false, issues_events: true } });
    const issue = await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Seen from the group" } });
    expect(issue.status).toBe(201);
    await receive(1);
    expect(received[0].headers["x-gitlab-event"]).toBe("Issue Hook");
    expect(received[0].body).toMatchObject({ object_kind: "issue", project: { id: project.id }, object_attributes: { iid: issue.body.iid, action: "open" } });
  });
});

describe("group member hooks", () => {
  test("a member added to a subgroup and removed: Member Hook to the ancestor group's hook", async () => {
    await U.owner.api.post(`/groups/${team.id}/hooks`, { json: { url: receiverUrl, push_events: false, member_events: true, token: TOKEN } });
    const newbie = await createUser(app, "newbie");
    expect((await U.owner.api.post(`/groups/${sub.id}/members`, { json: { user_id: newbie.id, access_level: 30 } })).status).toBe(201);
    const mine = () => received.filter((r) => r.body?.user_username === "newbie");
    await eventually(async () => {
      await tick();
      expect(mine()).toHaveLength(1);
    });
    expect(mine()[0].headers).toMatchObject({ "x-gitlab-event": "Member Hook", "x-gitlab-token": TOKEN });
    expect(mine()[0].body).toMatchObject({
      event_name: "user_add_to_group",
      group_id: sub.id,
      group_name: "sub",
      group_path: "team/sub",
      user_id: newbie.id,
      user_name: "newbie",
      user_email: "[REDACTED]",
      group_access: "Developer",
    });
    expect((await U.owner.api.delete(`/groups/${sub.id}/members/${newbie.id}`)).status).toBe(204);
    await eventually(async () => {
      await tick();
      expect(mine()).toHaveLength(2);
    });
    expect(mine()[1].body).toMatchObject({ event_name: "user_remove_from_group", group_id: sub.id, user_id: newbie.id });
  });
});

describe("deliveries", () => {
  test("issue opened, updated and closed: one POST each, in order, with GitLab's headers and payload", async () => {
    const hook = (
      await U.maint.api.post(P(), { json: { url: receiverUrl, token: TOKEN, push_events: false, issues_events: true, custom_headers: [{ key: "X-Custom", value: HEADER_VALUE }] } })
    ).body as { id: number };
    const issue = (await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Broken build" } })).body as { iid: number; id: number };
    await U.dev.api.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { title: "Broken build on main" } });
    await U.dev.api.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { state_event: "close" } });
    await receive(3);
    const [opened, updated, closed] = received;
    expect(opened.method).toBe("POST");
    expect(opened.path).toBe("/hook");
    expect(opened.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": expect.stringMatching(/^GitLab\/\d+\.\d+\.\d+$/),
      "x-gitlab-event": "Issue Hook",
      "x-gitlab-token": TOKEN,
      "x-custom": HEADER_VALUE,
      "x-gitlab-instance": expect.stringMatching(/^https?:\/\//),
      "x-gitlab-webhook-uuid": expect.stringMatching(/^[0-9a-f-]{36}$/),
      "x-gitlab-event-uuid": expect.any(String),
      "idempotency-key": expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(opened.body).toMatchObject({
      object_kind: "issue",
      event_type: "issue",
      user: { id: U.dev.id, username: "dev", email: "[REDACTED]" },
      project: { id: project.id, path_with_namespace: project.path_with_namespace, web_url: project.web_url, visibility_level: 0 },
      object_attributes: { id: issue.id, iid: issue.iid, title: "Broken build", action: "open", state: "opened", url: `${project.web_url}/-/issues/${issue.iid}` },
      labels: [],
      changes: {},
      repository: { name: "app", homepage: project.web_url },
    });
    expect(updated.body).toMatchObject({ object_attributes: { action: "update", title: "Broken build on main" }, changes: { title: { current: "Broken build on main" } } });
    expect(closed.body).toMatchObject({ object_attributes: { action: "close", state: "closed" } });
    // Each event has its own UUID; the hook's stays.
    expect(new Set(received.map((r) => r.headers["x-gitlab-event-uuid"])).size).toBe(3);
    expect(new Set(received.map((r) => r.headers["x-gitlab-webhook-uuid"])).size).toBe(1);

    // Recent events: the three executions, newest first, the token masked.
    const events = await U.maint.api.get(P(`/${hook.id}/events`));
    expect(events.status).toBe(200);
    expect(events.body).toHaveLength(3);
    expect(events.body[0]).toMatchObject({ url: receiverUrl, trigger: "issue_hooks", response_status: "200", response_body: "thanks", response_headers: { "x-receiver": "yes" }, request_data: { object_attributes: { action: "close" } } });
    expect(events.body[0].request_headers).toMatchObject({ "X-Gitlab-Event": "Issue Hook", "X-Gitlab-Token": "[REDACTED]", "X-Custom": "[REDACTED]" });
    expect(typeof events.body[0].execution_duration).toBe("number");
    expect(events.text).not.toContain(TOKEN);
    expect(events.text).not.toContain(HEADER_VALUE);
    expect((await U.maint.api.get(P(`/${hook.id}/events`), { query: { status: "client_failure" } })).body).toEqual([]);
    // Sent once: more ticks send nothing more.
    await tick();
    expect(received).toHaveLength(3);
    expect((await deliveries()).map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
  });

  test("only the enabled triggers: a confidential issue goes to confidential_issues_events hooks only; notes and merge requests", async () => {
    await U.maint.api.post(P(), { json: { url: `${receiverUrl}?all`, push_events: false, issues_events: true, note_events: true, merge_requests_events: true } });
    await U.maint.api.post(P(), { json: { url: `${receiverUrl}?confidential`, push_events: false, confidential_issues_events: true } });
    const secret = (await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "secret", confidential: true } })).body as { iid: number };
    await receive(1);
    expect(received[0]).toMatchObject({ path: "/hook?confidential", headers: { "x-gitlab-event": "Confidential Issue Hook" }, body: { event_type: "confidential_issue", object_attributes: { confidential: true } } });

    const publicIssue = (await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "public" } })).body as { iid: number; id: number };
    await receive(2);
    const note = await U.dev.api.post(`/projects/${project.id}/issues/${publicIssue.iid}/notes`, { json: { body: "Looking into it" } });
    expect(note.status).toBe(201);
    await receive(3);
    expect(received[2]).toMatchObject({
      path: "/hook?all",
      headers: { "x-gitlab-event": "Note Hook" },
      body: {
        object_kind: "note",
        event_type: "note",
        project_id: project.id,
        object_attributes: { id: note.body.id, note: "Looking into it", noteable_type: "Issue", url: `${project.web_url}/-/issues/${publicIssue.iid}#note_${note.body.id}` },
        issue: { id: publicIssue.id, iid: publicIssue.iid, title: "public" },
      },
    });
    expect(secret.iid).toBeGreaterThan(0);

    await root.post(`/projects/${project.id}/repository/branches`, { query: { branch: "feature", ref: "main" } });
    const mr = await U.dev.api.post(`/projects/${project.id}/merge_requests`, { json: { title: "Fix it", source_branch: "feature", target_branch: "main" } });
    expect(mr.status).toBe(201);
    await receive(4);
    expect(received[3]).toMatchObject({
      headers: { "x-gitlab-event": "Merge Request Hook" },
      body: { object_kind: "merge_request", object_attributes: { iid: mr.body.iid, title: "Fix it", action: "open", source_branch: "feature", target_branch: "main" } },
    });
  });

  test("emoji reactions: Emoji Hook on an award and its removal, on the issue and on a comment", async () => {
    await U.maint.api.post(P(), { json: { url: receiverUrl, push_events: false, emoji_events: true } });
    const issue = (await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Slow page" } })).body as { iid: number; id: number };
    const award = (await U.dev.api.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { json: { name: "thumbsup" } })).body as { id: number };
    await receive(1);
    expect(received[0]).toMatchObject({
      headers: { "x-gitlab-event": "Emoji Hook" },
      body: {
        object_kind: "emoji",
        event_type: "award",
        user: { username: "dev" },
        project_id: project.id,
        object_attributes: { id: award.id, name: "thumbsup", user_id: U.dev.id, awardable_type: "Issue", awardable_id: issue.id, action: "award", awarded_on_url: `${project.web_url}/-/issues/${issue.iid}` },
        issue: { id: issue.id, iid: issue.iid },
      },
    });
    const note = (await U.dev.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { json: { body: "Seen too" } })).body as { id: number };
    const onNote = (await U.maint.api.post(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}/award_emoji`, { json: { name: "tada" } })).body as { id: number };
    await receive(2);
    expect(received[1].body).toMatchObject({ event_type: "award", object_attributes: { id: onNote.id, awardable_type: "Note", awardable_id: note.id }, note: { id: note.id }, issue: { id: issue.id } });
    expect((await U.dev.api.delete(`/projects/${project.id}/issues/${issue.iid}/award_emoji/${award.id}`)).status).toBe(204);
    await receive(3);
    expect(received[2].body).toMatchObject({ object_kind: "emoji", event_type: "revoke", object_attributes: { id: award.id, action: "revoke" } });
  });

  test("pushes with git: Push Hook with the pushed commits and the branch filter; Tag Push Hook", async () => {
    await U.maint.api.post(P(), { json: { url: `${receiverUrl}?main`, push_events_branch_filter: "ma*" } });
    await U.maint.api.post(P(), { json: { url: `${receiverUrl}?tags`, push_events: false, tag_push_events: true } });
    const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, U.maint);
    const before = (await clone.run(["rev-parse", "HEAD"])).trim();
    const first = await clone.commit("main", "Add notes\n\nWhy they matter.");
    const second = await clone.commit("main", "Fix notes");
    await clone.pushOk("main");
    await receive(1);
    expect(received[0]).toMatchObject({
      path: "/hook?main",
      headers: { "x-gitlab-event": "Push Hook" },
      body: {
        object_kind: "push",
        event_name: "push",
        ref: "refs/heads/main",
        before,
        after: second,
        checkout_sha: second,
        user_id: U.maint.id,
        user_name: "maint",
        user_username: "maint",
        project_id: project.id,
        total_commits_count: 2,
        repository: { name: "app" },
      },
    });
    expect(received[0].body.commits).toEqual([
      { id: first, message: expect.stringMatching(/^Add notes\n\nWhy they matter\.\n?$/), title: "Add notes", timestamp: expect.any(String), url: `${project.web_url}/-/commit/${first}`, author: { name: "Test Author", email: "author@example.com" } },
      expect.objectContaining({ id: second, title: "Fix notes" }),
    ]);
    // A branch the filter leaves out reaches no hook.
    await clone.commit("other", "Elsewhere", { from: "main" });
    await clone.pushOk("other");
    await clone.run(["tag", "-a", "v1.0", "-m", "Release", "main"]);
    await clone.pushOk("v1.0");
    await receive(2);
    expect(received[1]).toMatchObject({
      path: "/hook?tags",
      headers: { "x-gitlab-event": "Tag Push Hook" },
      body: { object_kind: "tag_push", ref: "refs/tags/v1.0", before: "0".repeat(40), total_commits_count: 1, commits: [{ id: second, title: "Fix notes" }] },
    });
    await tick();
    expect(received).toHaveLength(2);
  });

  test("a finished pipeline: Pipeline Hook", async () => {
    await U.maint.api.post(P(), { json: { url: receiverUrl, push_events: false, pipeline_events: true } });
    const runner = (await U.maint.api.post("/user/runners", { json: { runner_type: "project_type", project_id: project.id } })).body as { token: string };
    const schedule = (await U.maint.api.post(`/projects/${project.id}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 1 * * *" } })).body as { id: number };
    expect((await U.maint.api.post(`/projects/${project.id}/pipeline_schedules/${schedule.id}/play`)).status).toBe(201);
    const job = (await apiClient(app.url).post("/jobs/request", { json: { token: runner.token } })).body as { id: number; pipeline_id: number };
    await call(app.broker, Runners.jobs.finish, { token: runner.token, job_id: job.id, status: "failed" });
    await receive(1);
    expect(received[0]).toMatchObject({
      headers: { "x-gitlab-event": "Pipeline Hook" },
      body: { object_kind: "pipeline", object_attributes: { id: job.pipeline_id, ref: "main", tag: false, status: "failed", source: "schedule", url: `${project.web_url}/-/pipelines/${job.pipeline_id}` }, project: { id: project.id } },
    });
  });

  test("refused by the outbound guard when local requests are no longer allowed: nothing received, logged", async () => {
    const hook = (await U.maint.api.post(P(), { json: { url: receiverUrl, issues_events: true } })).body as { id: number };
    await allowLocal(false);
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Nobody hears this" } });
    await eventually(async () => {
      await tick();
      expect((await deliveries()).filter((d) => d.slug === `webhook:${hook.id}`)).toEqual([expect.objectContaining({ status: "refused" })]);
    });
    expect(received).toEqual([]);
    const [log] = (await U.maint.api.get(P(`/${hook.id}/events`))).body;
    expect(log).toMatchObject({ response_status: "internal error", trigger: "issue_hooks" });
  });
});

describe("failures and auto-disabling", () => {
  /** Makes every waiting delivery due now (the back-off is minutes), leaving the hook's own state alone. */
  const due = () => app.database.db.execute(sql`UPDATE integrations.integration_deliveries SET next_attempt_at = now() WHERE status = 'pending'`);
  /** An issue opened now reaches a second (witness) hook, and not the disabled one, which had `before` requests. */
  async function notSentWhileDisabled(before: number) {
    await U.maint.api.post(P(), { json: { url: `${receiverUrl}?witness`, issues_events: true, push_events: false } });
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Not sent" } });
    await receive(before + 1);
    expect(received[before]).toMatchObject({ path: "/hook?witness", body: { object_attributes: { title: "Not sent" } } });
    await tick();
    expect(received).toHaveLength(before + 1);
  }

  test("server errors: retried, then the hook is disabled for a while after the 4th failure in a row", async () => {
    const hook = (await U.maint.api.post(P(), { json: { url: receiverUrl, issues_events: true, push_events: false } })).body as { id: number };
    answers = [500, 502, 503, 500];
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Flaky" } });
    await receive(1);
    expect(await deliveries()).toEqual([expect.objectContaining({ status: "pending", attempts: 1, response_code: 500 })]);
    // A later event waits behind the one being retried: a hook gets its events in order.
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Second" } });
    await eventually(async () => {
      await tick();
      expect(await deliveries()).toHaveLength(2);
    });
    for (const n of [2, 3, 4]) {
      await due();
      await receive(n);
    }
    // Every attempt carried the first event; the second was not sent ahead of it.
    expect(received.map((r) => r.body.object_attributes.title)).toEqual(["Flaky", "Flaky", "Flaky", "Flaky"]);
    expect(new Set(received.map((r) => r.headers["x-gitlab-event-uuid"])).size).toBe(1);
    expect(new Set(received.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    // The first gave up after 4 attempts; the second waits for the hook's back-off, no attempt counted.
    expect(await deliveries()).toEqual([
      expect.objectContaining({ status: "failed", attempts: 4, response_code: 500 }),
      expect.objectContaining({ status: "pending", attempts: 0 }),
    ]);
    const shown = (await U.maint.api.get(P(`/${hook.id}`))).body;
    expect(shown.alert_status).toBe("temporarily_disabled");
    expect(new Date(shown.disabled_until).getTime()).toBeGreaterThan(Date.now());
    // While disabled, new events do not reach it (a second hook shows the event went out).
    await notSentWhileDisabled(4);
    expect((await U.maint.api.get(P(`/${hook.id}/events`), { query: { status: "server_failure" } })).body).toHaveLength(4);
  });

  test("client errors: not retried; after 4 in a row the hook is disabled; a successful test enables it again", async () => {
    const hook = (await U.maint.api.post(P(), { json: { url: receiverUrl, issues_events: true, push_events: false } })).body as { id: number };
    answers = [404, 404, 404, 404];
    for (let n = 1; n <= 4; n++) {
      await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: `Refused ${n}` } });
      await receive(n);
    }
    await eventually(async () => expect((await deliveries()).map((d) => d.status)).toEqual(["failed", "failed", "failed", "failed"]));
    expect((await U.maint.api.get(P(`/${hook.id}`))).body).toMatchObject({ alert_status: "disabled", disabled_until: null });
    await notSentWhileDisabled(4);

    const tested = await U.maint.api.post(P(`/${hook.id}/test/issues_events`));
    expect(tested).toMatchObject({ status: 201, body: { message: "Hook executed successfully" } });
    expect(received[5]).toMatchObject({ headers: { "x-gitlab-event": "Issue Hook" }, body: { object_kind: "issue", object_attributes: { title: "Not sent" } } });
    expect((await U.maint.api.get(P(`/${hook.id}`))).body.alert_status).toBe("executable");
  });
});

describe("test and resend", () => {
  test("test: 422 without data, 201 with; resend runs a logged execution again; both for maintainers only", async () => {
    const hook = (await U.maint.api.post(P(), { json: { url: receiverUrl, token: TOKEN } })).body as { id: number };
    expect(await U.maint.api.post(P(`/${hook.id}/test/issues_events`))).toMatchObject({ status: 422, body: { message: "Ensure the project has issues." } });
    expect(await U.maint.api.post(P(`/${hook.id}/test/merge_requests_events`))).toMatchObject({ status: 422, body: { message: "Ensure the project has merge requests." } });
    expect((await U.maint.api.post(P(`/${hook.id}/test/bogus_events`))).status).toBe(400);
    // A project with a commit has a push sample: its default branch's head.
    expect(await U.maint.api.post(P(`/${hook.id}/test/push_events`))).toMatchObject({ status: 201, body: { message: "Hook executed successfully" } });
    const head = (await U.maint.api.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id as string;
    expect(received.splice(0)).toEqual([
      expect.objectContaining({ headers: expect.objectContaining({ "x-gitlab-event": "Push Hook" }), body: expect.objectContaining({ object_kind: "push", ref: "refs/heads/main", after: head, user_username: "maint", total_commits_count: 1, commits: [expect.objectContaining({ id: head })] }) }),
    ]);
    const empty = await createProject(root, { name: "empty", namespace_id: team.id });
    const emptyHook = (await U.maint.api.post(`/projects/${empty.id}/hooks`, { json: { url: receiverUrl } })).body as { id: number };
    expect(await U.maint.api.post(`/projects/${empty.id}/hooks/${emptyHook.id}/test/push_events`)).toMatchObject({ status: 422, body: { message: "Ensure the project has at least one commit." } });
    expect((await U.dev.api.post(P(`/${hook.id}/test/issues_events`))).status).toBe(403);
    expect(received).toEqual([]);

    // The hook is not enabled for issues: a test sends anyway, as GitLab's does.
    const issue = (await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Sample" } })).body as { iid: number };
    expect(await U.maint.api.post(P(`/${hook.id}/test/issues_events`))).toMatchObject({ status: 201, body: { message: "Hook executed successfully" } });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ headers: { "x-gitlab-event": "Issue Hook", "x-gitlab-token": TOKEN }, body: { object_attributes: { iid: issue.iid, title: "Sample" }, user: { username: "maint" } } });

    const [log] = (await U.maint.api.get(P(`/${hook.id}/events`))).body as { id: number }[];
    const resent = await U.maint.api.post(P(`/${hook.id}/events/${log.id}/resend`));
    expect(resent).toMatchObject({ status: 201, body: { response_status: 200 } });
    expect(received).toHaveLength(2);
    expect(received[1].body).toEqual(received[0].body);
    expect(received[1].headers["x-gitlab-token"]).toBe(TOKEN);
    // The same event and delivery, as far as the receiver can tell.
    expect(received[1].headers["x-gitlab-event-uuid"]).toBe(received[0].headers["x-gitlab-event-uuid"]);
    expect(received[1].headers["idempotency-key"]).toBe(received[0].headers["idempotency-key"]);
    // The push test, the issues test and the resend.
    expect((await U.maint.api.get(P(`/${hook.id}/events`))).body).toHaveLength(3);
    expect((await U.dev.api.post(P(`/${hook.id}/events/${log.id}/resend`))).status).toBe(403);
    expect((await U.maint.api.post(P(`/${hook.id}/events/${log.id + 1000}/resend`))).status).toBe(404);

    // A log of another hook is not found through this one.
    const other = (await U.maint.api.post(P(), { json: { url: `${receiverUrl}?other` } })).body as { id: number };
    expect((await U.maint.api.post(P(`/${other.id}/events/${log.id}/resend`))).status).toBe(404);
    // Once the URL changed, a log cannot be sent again.
    await U.maint.api.put(P(`/${hook.id}`), { json: { url: `${receiverUrl}?moved` } });
    expect(await U.maint.api.post(P(`/${hook.id}/events/${log.id}/resend`))).toMatchObject({ status: 422, body: { message: "The hook URL has changed, and this log entry cannot be retried" } });
    expect(received).toHaveLength(2);
  });
});

describe("payloads as GitLab sends them", () => {
  test("Issue Hook: the issue with its labels, assignees and description; an edit's changes with previous and current values", async () => {
    await U.maint.api.post(P(), { json: { url: receiverUrl, push_events: false, issues_events: true } });
    const bug = (await U.maint.api.post(`/projects/${project.id}/labels`, { json: { name: "bug", color: "#FF0000", description: "Broken" } })).body as { id: number };
    const ui = (await U.maint.api.post(`/projects/${project.id}/labels`, { json: { name: "ui", color: "#00FF00" } })).body as { id: number };
    const milestone = (await U.maint.api.post(`/projects/${project.id}/milestones`, { json: { title: "v1" } })).body as { id: number };
    const issue = (
      await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Crash", description: "It crashes", labels: "bug", assignee_ids: [U.dev.id], milestone_id: milestone.id } })
    ).body as { id: number; iid: number };
    await receive(1);
    const opened = received[0].body;
    expect(opened.object_attributes).toMatchObject({
      id: issue.id,
      iid: issue.iid,
      title: "Crash",
      description: "It crashes",
      author_id: U.dev.id,
      assignee_ids: [U.dev.id],
      assignee_id: U.dev.id,
      milestone_id: milestone.id,
      project_id: project.id,
      state: "opened",
      state_id: 1,
      confidential: false,
      time_estimate: 0,
      total_time_spent: 0,
      type: "Issue",
      action: "open",
      url: `${project.web_url}/-/issues/${issue.iid}`,
      labels: [expect.objectContaining({ id: bug.id, title: "bug", color: "#FF0000", description: "Broken", type: "ProjectLabel", project_id: project.id, group_id: null, template: false })],
    });
    expect(opened.object_attributes.created_at).toEqual(expect.any(String));
    expect(opened.labels).toEqual([expect.objectContaining({ id: bug.id, title: "bug" })]);
    expect(opened.assignees).toEqual([{ id: U.dev.id, name: "dev", username: "dev", avatar_url: null, email: "[REDACTED]" }]);
    expect(opened.changes).toMatchObject({ title: { previous: null, current: "Crash" }, description: { previous: null, current: "It crashes" }, author_id: { previous: null, current: U.dev.id } });
    expect(opened.repository).toEqual({ name: "app", url: expect.any(String), description: null, homepage: project.web_url });

    await U.dev.api.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { title: "Crash on start", add_labels: "ui", remove_labels: "bug", assignee_ids: [U.maint.id] } });
    await receive(2);
    const updated = received[1].body;
    expect(updated.object_attributes).toMatchObject({ action: "update", title: "Crash on start", assignee_ids: [U.maint.id], labels: [expect.objectContaining({ id: ui.id, title: "ui" })] });
    expect(updated.changes).toMatchObject({
      title: { previous: "Crash", current: "Crash on start" },
      labels: { previous: [expect.objectContaining({ id: bug.id, title: "bug" })], current: [expect.objectContaining({ id: ui.id, title: "ui" })] },
      assignees: { previous: [expect.objectContaining({ username: "dev" })], current: [expect.objectContaining({ username: "maint" })] },
      updated_by_id: { current: U.dev.id },
    });
    expect(updated.changes.updated_at.previous).not.toEqual(updated.changes.updated_at.current);
    expect(updated.changes).not.toHaveProperty("description");

    await U.dev.api.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { state_event: "close" } });
    await receive(3);
    expect(received[2].body).toMatchObject({ object_attributes: { action: "close", state: "closed", state_id: 2 }, changes: { state_id: { previous: 1, current: 2 } } });
  });

  test("Merge Request Hook and Note Hook carry the merge request's and issue's labels", async () => {
    await U.maint.api.post(P(), { json: { url: receiverUrl, push_events: false, merge_requests_events: true, note_events: true } });
    await U.maint.api.post(`/projects/${project.id}/labels`, { json: { name: "review", color: "#0000FF" } });
    await root.post(`/projects/${project.id}/repository/branches`, { query: { branch: "feature", ref: "main" } });
    const mr = (await U.dev.api.post(`/projects/${project.id}/merge_requests`, { json: { title: "Draft: Fix", source_branch: "feature", target_branch: "main", labels: "review", reviewer_ids: [U.maint.id], description: "Fixes it" } })).body as { id: number; iid: number };
    await receive(1);
    expect(received[0].body).toMatchObject({
      object_kind: "merge_request",
      object_attributes: { id: mr.id, iid: mr.iid, title: "Draft: Fix", description: "Fixes it", draft: true, work_in_progress: true, state_id: 1, reviewer_ids: [U.maint.id], labels: [expect.objectContaining({ title: "review" })], source: { path_with_namespace: project.path_with_namespace } },
      labels: [expect.objectContaining({ title: "review" })],
      reviewers: [expect.objectContaining({ username: "maint" })],
    });
    await U.dev.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { json: { title: "Fix", remove_labels: "review" } });
    await receive(2);
    expect(received[1].body).toMatchObject({
      object_attributes: { action: "update", draft: false },
      changes: { title: { previous: "Draft: Fix", current: "Fix" }, draft: { previous: true, current: false }, labels: { previous: [expect.objectContaining({ title: "review" })], current: [] } },
      labels: [],
    });
    await U.dev.api.post(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { json: { body: "Ready" } });
    await receive(3);
    expect(received[2].body).toMatchObject({ object_kind: "note", merge_request: { id: mr.id, iid: mr.iid, title: "Fix", source_branch: "feature", labels: [], state: "opened" } });
  });
});

describe("milestone and job hooks", () => {
  test("Milestone Hook on create, close, reopen and delete of a project milestone", async () => {
    await U.maint.api.post(P(), { json: { url: receiverUrl, push_events: false, milestone_events: true } });
    const m = (await U.maint.api.post(`/projects/${project.id}/milestones`, { json: { title: "v1.0", description: "First", due_date: "2030-01-31" } })).body as { id: number; iid: number };
    await receive(1);
    expect(received[0]).toMatchObject({
      headers: { "x-gitlab-event": "Milestone Hook" },
      body: { object_kind: "milestone", event_type: "milestone", action: "create", project: { id: project.id }, object_attributes: { id: m.id, iid: m.iid, title: "v1.0", description: "First", state: "active", due_date: "2030-01-31", project_id: project.id, group_id: null } },
    });
    await U.maint.api.put(`/projects/${project.id}/milestones/${m.id}`, { json: { state_event: "close" } });
    await receive(2);
    expect(received[1].body).toMatchObject({ action: "close", object_attributes: { id: m.id, state: "closed" } });
    await U.maint.api.put(`/projects/${project.id}/milestones/${m.id}`, { json: { state_event: "activate" } });
    await receive(3);
    expect(received[2].body).toMatchObject({ action: "reopen", object_attributes: { state: "active" } });
    expect((await U.maint.api.delete(`/projects/${project.id}/milestones/${m.id}`)).status).toBe(204);
    await receive(4);
    expect(received[3].body).toMatchObject({ action: "delete", object_attributes: { id: m.id, iid: m.iid, title: "v1.0" } });
  });

  test("Job Hook on each status of a job: pending with its pipeline, running, then its final status", async () => {
    await U.maint.api.post(P(), { json: { url: receiverUrl, push_events: false, job_events: true } });
    const runner = (await U.maint.api.post("/user/runners", { json: { runner_type: "project_type", project_id: project.id, description: "box", tag_list: ["linux"] } })).body as { id: number; token: string };
    const schedule = (await U.maint.api.post(`/projects/${project.id}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 1 * * *" } })).body as { id: number };
    expect((await U.maint.api.post(`/projects/${project.id}/pipeline_schedules/${schedule.id}/play`)).status).toBe(201);
    await receive(1);
    const job = (await apiClient(app.url).post("/jobs/request", { json: { token: runner.token } })).body as { id: number; pipeline_id: number };
    await receive(2);
    await call(app.broker, Runners.jobs.finish, { token: runner.token, job_id: job.id, status: "success" });
    await receive(3);
    expect(received.map((r) => [r.headers["x-gitlab-event"], r.body.build_status])).toEqual([
      ["Job Hook", "pending"],
      ["Job Hook", "running"],
      ["Job Hook", "success"],
    ]);
    expect(received[2].body).toMatchObject({
      object_kind: "build",
      ref: "main",
      tag: false,
      build_id: job.id,
      build_name: "build",
      build_stage: "build",
      pipeline_id: job.pipeline_id,
      project_id: project.id,
      user: { id: U.maint.id, username: "maint" },
      commit: { id: job.pipeline_id, status: "success" },
      runner: { id: runner.id, description: "box", runner_type: "project_type", is_shared: false, active: true, tags: ["linux"] },
      project: { id: project.id },
    });
    expect(received[2].body.build_duration).toEqual(expect.any(Number));
    expect(received[0].body.runner).toBeNull();
  });
});
