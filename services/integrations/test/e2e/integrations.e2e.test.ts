import { call } from "@collab/core";
import { Integrations } from "@collab/integrations-contract";
import { Runners } from "@collab/runners-contract";
import { addMember, apiClient, createGroup, createProject, createUser, eventually, startMailbox, type ApiClient, type Mailbox, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startApp } from "@collab/standalone/test/app";
import { Issues } from "@collab/issues-contract";
import { Snippets } from "@collab/snippets-contract";

/**
 * Integrations (GitLab's project and group integrations API): every kind's required parameters,
 * unknown and never-set-up slugs, write-only secrets, inheritance from ancestor groups, DELETE
 * reset, roles; pipeline status emails through a real SMTP receiver; and the Discord notifier delivering to a local HTTP server after an issue is
 * opened, or refused by the outbound guard when local requests are not allowed.
 *
 * World: private group "team" (subgroup "team/sub") with project "app" in the subgroup;
 * owner (50), maint (40), dev (30) of the group; outsider.
 */
// The tests tick the delivery worker themselves (integrations.deliveries.tick); the distributed
// pass starts its topology so too (scripts/jest-distributed-setup.js).
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";

let app: TestApp;
let root: ApiClient;
const U = {} as Record<"owner" | "maint" | "dev" | "outsider", TestUser>;
let team: { id: number };
let sub: { id: number };
let project: { id: number };

let mailbox: Mailbox;

beforeAll(async () => {
  // Before the app: services read SMTP_URL when they are created.
  mailbox = await startMailbox();
  app = await startApp("integrations");
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  team = await createGroup(root, "team", "team", { visibility: "private" });
  sub = await createGroup(root, "sub", "sub", { visibility: "private", parent_id: team.id });
  project = await createProject(root, { name: "app", namespace_id: sub.id, visibility: "private", initialize_with_readme: true });
  for (const [name, level] of Object.entries({ owner: 50, maint: 40, dev: 30 })) {
    U[name as keyof typeof U] = await createUser(app, name);
    await addMember(app, "groups", team.id, U[name as keyof typeof U].id, level);
  }
  U.outsider = await createUser(app, "outsider");
});
afterAll(async () => {
  await app.stop();
  await mailbox.stop();
});

const P = (slug = "") => `/projects/${project.id}/integrations${slug ? `/${slug}` : ""}`;
const G = (g: { id: number }, slug = "") => `/groups/${g.id}/integrations${slug ? `/${slug}` : ""}`;
const HOOK = "https://discord.example.com/api/webhooks/1/secret-token";

/** A valid set-up of every kind, and the parameter a missing-param check leaves out. */
const VALID: Record<string, { params: Record<string, unknown>; required: string; secret?: string }> = {
  asana: { params: { api_key: "k3y", restrict_to_branch: "main" }, required: "api_key", secret: "api_key" },
  assembla: { params: { token: "t0k", subdomain: "acme" }, required: "token", secret: "token" },
  bamboo: { params: { ci_server_url: "https://bamboo.example.com", build_key: "KEY", username: "u", password: "pw" }, required: "build_key", secret: "password" },
  bugzilla: { params: { new_issue_url: "https://bz.example.com/new", issues_url: "https://bz.example.com/:id", project_url: "https://bz.example.com" }, required: "new_issue_url" },
  "custom-issue-tracker": { params: { new_issue_url: "https://t.example.com/new", issues_url: "https://t.example.com/:id", project_url: "https://t.example.com" }, required: "issues_url" },
  redmine: { params: { new_issue_url: "https://r.example.com/new", issues_url: "https://r.example.com/:id", project_url: "https://r.example.com" }, required: "project_url" },
  ewm: { params: { new_issue_url: "https://e.example.com/new", issues_url: "https://e.example.com/:id", project_url: "https://e.example.com" }, required: "project_url" },
  youtrack: { params: { issues_url: "https://yt.example.com/:id", project_url: "https://yt.example.com" }, required: "issues_url" },
  buildkite: { params: { token: "bk", project_url: "https://buildkite.com/acme/app", push_events: false }, required: "token", secret: "token" },
  discord: { params: { webhook: HOOK, branches_to_be_notified: "all" }, required: "webhook", secret: "webhook" },
  slack: { params: { webhook: "https://hooks.slack.com/services/T/B/x", username: "bot", channel: "#dev", push_channel: "#pushes", labels_to_be_notified: "bug", labels_to_be_notified_behavior: "match_all" }, required: "webhook", secret: "webhook" },
  mattermost: { params: { webhook: "https://mm.example.com/hooks/x", channel: "town-square" }, required: "webhook", secret: "webhook" },
  "microsoft-teams": { params: { webhook: "https://acme.webhook.office.com/x" }, required: "webhook", secret: "webhook" },
  "hangouts-chat": { params: { webhook: "https://chat.googleapis.com/v1/spaces/x/messages?key=k" }, required: "webhook", secret: "webhook" },
  "webex-teams": { params: { webhook: "https://webexapis.com/v1/webhooks/incoming/x" }, required: "webhook", secret: "webhook" },
  pumble: { params: { webhook: "https://api.pumble.com/workspaces/x" }, required: "webhook", secret: "webhook" },
  "unify-circuit": { params: { webhook: "https://circuit.example.com/rest/v2/webhooks/incoming/x" }, required: "webhook", secret: "webhook" },
  telegram: { params: { token: "123:tg-secret", room: "@team", thread: "7" }, required: "room", secret: "token" },
  matrix: { params: { token: "syt-mx-secret", room: "!room:example.org", hostname: "https://matrix.example.org" }, required: "token", secret: "token" },
  "mock-ci": { params: { mock_service_url: "https://mock.example.com" }, required: "mock_service_url" },
  packagist: { params: { username: "u", token: "pk", server: "https://packagist.example.com" }, required: "username", secret: "token" },
  "pipelines-email": { params: { recipients: "a@example.com,b@example.com", notify_only_broken_pipelines: false }, required: "recipients" },
  "apple-app-store": { params: { app_store_issuer_id: "i", app_store_key_id: "k", app_store_private_key_file_name: "f.p8", app_store_private_key: "-----BEGIN PRIVATE KEY-----" }, required: "app_store_private_key", secret: "app_store_private_key" },
};

describe("integrations settings", () => {
  test("every kind: missing required param → 400 naming it; set up → 200 active, secrets never in properties; listed", async () => {
    for (const [slug, { params, required, secret }] of Object.entries(VALID)) {
      const { [required]: _left, ...rest } = params;
      expect({ slug, res: (await U.maint.api.put(P(slug), { json: rest })).body }).toEqual({ slug, res: { error: `${required} is missing` } });
      const res = await U.maint.api.put(P(slug), { json: params });
      expect({ slug, status: res.status }).toEqual({ slug, status: 200 });
      expect(res.body).toMatchObject({ slug, active: true, inherited: false, id: expect.any(Number), title: expect.any(String) });
      if (secret) expect(res.body.properties).not.toHaveProperty(secret);
      const read = await U.maint.api.get(P(slug));
      expect(read.body).toEqual(res.body);
      expect(JSON.stringify(read.body)).not.toContain(String(secret ? params[secret] : "\u0000"));
    }
    const list = await U.maint.api.get(P());
    expect(list.status).toBe(200);
    expect(list.body.map((i: { slug: string }) => i.slug).sort()).toEqual(Object.keys(VALID).sort());
    expect(list.body[0]).not.toHaveProperty("properties");
    const discord = (await U.maint.api.get(P("discord"))).body;
    expect(discord).toMatchObject({
      title: "Discord Notifications",
      push_events: true,
      pipeline_events: false,
      comment_on_event_enabled: true,
      vulnerability_events: false,
      properties: { notify_only_broken_pipelines: true, notify_only_default_branch: false, branches_to_be_notified: "all" },
    });
    expect((await U.maint.api.get(P("buildkite"))).body).toMatchObject({ push_events: false, properties: { project_url: "https://buildkite.com/acme/app", enable_ssl_verification: true } });
  });

  test("unknown slug → 400, never set up → 404 Integration Not Found, invalid values → 400", async () => {
    expect(await U.maint.api.get(P("nope"))).toMatchObject({ status: 400, body: { error: "slug does not have a valid value" } });
    expect(await U.maint.api.put(P("nope"), { json: {} })).toMatchObject({ status: 400, body: { error: "slug does not have a valid value" } });
    expect(await U.maint.api.get(P("asana"))).toMatchObject({ status: 404, body: { message: "404 Integration Not Found" } });
    expect(await U.maint.api.delete(P("asana"))).toMatchObject({ status: 404, body: { message: "404 Integration Not Found" } });
    // apple-app-store has no group level
    expect(await U.owner.api.get(G(team, "apple-app-store"))).toMatchObject({ status: 400, body: { error: "slug does not have a valid value" } });
    // URLs as GitLab's public_url validator: not a URL, not http(s), local without the setting
    for (const webhook of ["not a url", "ftp://x.example.com", "http://127.0.0.1:9/hook", "http://localhost/x"])
      expect(await U.maint.api.put(P("discord"), { json: { webhook } })).toMatchObject({ status: 400, body: { message: "400 Bad Request" } });
    expect(await U.maint.api.put(P("asana"), { json: { api_key: "" } })).toMatchObject({ status: 400, body: { message: "400 Bad Request" } });
    expect(await U.maint.api.put(P("discord"), { json: { webhook: HOOK, branches_to_be_notified: "some" } })).toMatchObject({ status: 400, body: { error: "branches_to_be_notified does not have a valid value" } });
    expect(await U.maint.api.put(P("discord"), { json: { webhook: HOOK, push_events: "maybe" } })).toMatchObject({ status: 400, body: { error: "push_events is invalid" } });
    expect((await U.maint.api.get(P())).body).toEqual([]);
  });

  test("roles: Maintainer+ of project and group; Developer 403; outsider of private 404", async () => {
    expect((await U.dev.api.get(P())).status).toBe(403);
    expect((await U.dev.api.put(P("asana"), { json: { api_key: "k" } })).status).toBe(403);
    expect(await U.outsider.api.get(P())).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await U.outsider.api.get(G(team))).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await U.dev.api.get(G(team))).status).toBe(403);
    expect((await U.maint.api.put(G(team, "asana"), { json: { api_key: "k" } })).status).toBe(200);
    expect((await U.owner.api.get(G(team))).status).toBe(200);
    expect((await apiClient(app.url).get(P())).status).toBe(401);
  });

  test("inheritance: a group's integration shows in subgroups and projects as inherited; own settings win; use_inherited_settings follows the group", async () => {
    const set = await U.owner.api.put(G(team, "redmine"), { json: VALID.redmine.params });
    expect(set.body).toMatchObject({ active: true, inherited: false });
    const inProject = await U.maint.api.get(P("redmine"));
    expect(inProject).toMatchObject({ status: 200, body: { id: set.body.id, active: true, inherited: true, properties: { project_url: "https://r.example.com" } } });
    expect((await U.maint.api.get(G(sub, "redmine"))).body).toMatchObject({ inherited: true });
    expect((await U.maint.api.get(P())).body).toEqual([expect.objectContaining({ slug: "redmine", inherited: true })]);

    // The subgroup sets its own: the project now inherits from its closest ancestor.
    await U.owner.api.put(G(sub, "redmine"), { json: { ...VALID.redmine.params, project_url: "https://sub.example.com" } });
    expect((await U.maint.api.get(P("redmine"))).body.properties.project_url).toBe("https://sub.example.com");

    // The project's own settings win over the ancestors'.
    const own = await U.maint.api.put(P("redmine"), { json: { ...VALID.redmine.params, project_url: "https://own.example.com" } });
    expect(own.body).toMatchObject({ inherited: false, properties: { project_url: "https://own.example.com" } });

    // use_inherited_settings: back to the closest ancestor's, under the project's own id; a later group change shows at once.
    const back = await U.maint.api.put(P("redmine"), { json: { ...VALID.redmine.params, use_inherited_settings: true } });
    expect(back.body).toMatchObject({ id: own.body.id, inherited: true, properties: { project_url: "https://sub.example.com" } });
    await U.owner.api.put(G(sub, "redmine"), { json: { ...VALID.redmine.params, project_url: "https://changed.example.com" } });
    expect((await U.maint.api.get(P("redmine"))).body).toMatchObject({ inherited: true, properties: { project_url: "https://changed.example.com" } });
  });

  test("DELETE resets to defaults and deactivates (204); GET afterwards shows the defaults; the list drops it", async () => {
    await U.maint.api.put(P("discord"), { json: { webhook: HOOK, notify_only_broken_pipelines: false, branches_to_be_notified: "all", push_events: false } });
    const del = await U.maint.api.delete(P("discord"));
    expect(del).toMatchObject({ status: 204, text: "" });
    const after = await U.maint.api.get(P("discord"));
    expect(after).toMatchObject({ status: 200, body: { active: false, push_events: true, properties: { notify_only_broken_pipelines: true, branches_to_be_notified: "default" } } });
    expect((await U.maint.api.get(P())).body).toEqual([]);
    expect((await U.dev.api.delete(P("discord"))).status).toBe(403);
  });
});

describe("Discord deliveries", () => {
  let server: http.Server;
  let received: { body: any; headers: http.IncomingHttpHeaders }[];
  let hookUrl: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        received.push({ body: JSON.parse(data), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/1/t`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    received = [];
  });

  const deliveries = async () =>
    ((await app.database.db.execute(sql`SELECT event_name, status, attempts, response_code, error FROM integrations.integration_deliveries ORDER BY id`)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const tick = () => call(app.broker, Integrations.deliveries.tick, {});
  const allowLocal = (allow: boolean) => root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: allow } });

  test("an opened issue reaches the webhook (a group's integration, inherited) when local requests are allowed; sent once", async () => {
    expect((await allowLocal(true)).status).toBe(200);
    expect((await U.owner.api.put(G(team, "discord"), { json: { webhook: hookUrl } })).status).toBe(200);
    const issue = await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Broken build" } });
    expect(issue.status).toBe(201);
    await eventually(async () => expect(await deliveries()).toHaveLength(1));
    await tick();
    expect(received).toHaveLength(1);
    expect(received[0].headers["content-type"]).toBe("application/json");
    expect(received[0].body).toMatchObject({
      content: `[team/sub/app] Issue #${issue.body.iid} opened by dev`,
      embeds: [{ title: `#${issue.body.iid} Broken build`, url: issue.body.web_url, author: { name: "dev" } }],
    });
    expect(await deliveries()).toEqual([{ event_name: Issues.events.issueOpened.name, status: "delivered", attempts: 1, response_code: 204, error: null }]);
    await tick();
    expect(received).toHaveLength(1);
  });

  test("a comment on a project snippet reaches the webhook, naming the snippet", async () => {
    await allowLocal(true);
    await U.maint.api.put(P("discord"), { json: { webhook: hookUrl, issues_events: false } });
    const snippet = await U.dev.api.post(`/projects/${project.id}/snippets`, { json: { title: "Deploy script", visibility: "private", files: [{ file_path: "deploy.sh", content: "make" }] } });
    expect(snippet.status).toBe(201);
    const note = await U.dev.api.post(`/projects/${project.id}/snippets/${snippet.body.id}/notes`, { json: { body: "Looks right" } });
    expect(note.status).toBe(201);
    await eventually(async () => expect(await deliveries()).toHaveLength(1));
    await tick();
    expect(received.map((r) => r.body)).toEqual([
      expect.objectContaining({
        content: `[team/sub/app] dev commented on snippet $${snippet.body.id}`,
        embeds: [expect.objectContaining({ title: "Deploy script", url: `${snippet.body.web_url}#note_${note.body.id}`, description: "Looks right" })],
      }),
    ]);
    expect(await deliveries()).toEqual([expect.objectContaining({ event_name: Snippets.events.noteCreated.name, status: "delivered" })]);
  });

  test("disabled event kinds and confidential issues follow their booleans", async () => {
    await allowLocal(true);
    await U.maint.api.put(P("discord"), { json: { webhook: hookUrl, issues_events: false, confidential_issues_events: true } });
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "public" } });
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "secret", confidential: true } });
    await eventually(async () => expect(await deliveries()).toHaveLength(2));
    await tick();
    expect(received.map((r) => r.body.embeds[0].title)).toEqual([expect.stringContaining("secret")]);
    // The event the integration is not enabled for left no delivery behind.
    expect(await deliveries()).toEqual([expect.objectContaining({ status: "delivered" })]);
  });

  test("refused by the outbound guard when local requests are not allowed: nothing received, recorded refused, not retried", async () => {
    await allowLocal(true);
    await U.maint.api.put(P("discord"), { json: { webhook: hookUrl } });
    await allowLocal(false);
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Nobody hears this" } });
    await eventually(async () => expect(await deliveries()).toHaveLength(1));
    await tick();
    await tick();
    expect(received).toEqual([]);
    expect(await deliveries()).toEqual([{ event_name: Issues.events.issueOpened.name, status: "refused", attempts: 1, response_code: null, error: "Requests to localhost are not allowed" }]);
  });

  test("a whitelisted address is let through; a failing endpoint is retried later (pending, attempts counted)", async () => {
    await allowLocal(true);
    await U.maint.api.put(P("discord"), { json: { webhook: hookUrl } });
    expect((await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: false, outbound_local_requests_whitelist: ["127.0.0.0/8"] } })).status).toBe(200);
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "whitelisted" } });
    await eventually(async () => expect(await deliveries()).toHaveLength(1));
    await tick();
    expect(received).toHaveLength(1);

    await U.maint.api.put(P("discord"), { json: { webhook: hookUrl.replace(/:\d+\//, ":1/") } });
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "unreachable" } });
    await eventually(async () => expect(await deliveries()).toHaveLength(2));
    await tick();
    expect((await deliveries())[1]).toMatchObject({ status: "pending", attempts: 1, error: expect.any(String) });
  });

  test("a deleted project's integrations and deliveries go", async () => {
    await allowLocal(true);
    await U.maint.api.put(P("discord"), { json: { webhook: hookUrl } });
    await U.dev.api.post(`/projects/${project.id}/issues`, { json: { title: "soon gone" } });
    await eventually(async () => expect(await deliveries()).toHaveLength(1));
    expect((await root.delete(`/projects/${project.id}`)).status).toBe(202);
    expect((await root.delete(`/projects/${project.id}`, { query: { permanently_remove: true, full_path: "team/sub/app" } })).status).toBe(202);
    await eventually(async () => {
      expect(await deliveries()).toEqual([]);
      const rows = (await app.database.db.execute(sql`SELECT count(*)::int AS n FROM integrations.integrations`)) as unknown as { rows: { n: number }[] };
      expect(rows.rows[0].n).toBe(0);
    });
  });
});

describe("pipeline status emails", () => {
  const deliveries = async () =>
    ((await app.database.db.execute(sql`SELECT slug, event_name, status FROM integrations.integration_deliveries ORDER BY id`)) as unknown as { rows: Record<string, unknown>[] }).rows;

  test("a failed pipeline mails every recipient; a successful one is left out with notify_only_broken_pipelines", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const [a, b] = [`ci-a-${tag}@example.com`, `ci-b-${tag}@example.com`];
    const set = await U.maint.api.put(P("pipelines-email"), { json: { recipients: `${a}, ${b}`, pipeline_events: true } });
    expect(set.body).toMatchObject({ active: true, pipeline_events: true, properties: { recipients: `${a}, ${b}`, notify_only_broken_pipelines: true, branches_to_be_notified: "default" } });

    const runner = (await U.maint.api.post("/user/runners", { json: { runner_type: "project_type", project_id: project.id } })).body;
    const schedule = (await U.maint.api.post(`/projects/${project.id}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 1 * * *" } })).body;
    for (let i = 0; i < 2; i++) expect((await U.maint.api.post(`/projects/${project.id}/pipeline_schedules/${schedule.id}/play`)).status).toBe(201);
    // The runner picks both jobs as a runner does (POST /jobs/request with its token).
    const runnerApi = apiClient(app.url);
    const first = (await runnerApi.post("/jobs/request", { json: { token: runner.token } })).body as { id: number; pipeline_id: number };
    const second = (await runnerApi.post("/jobs/request", { json: { token: runner.token } })).body as { id: number; pipeline_id: number };
    await call(app.broker, Runners.jobs.finish, { token: runner.token, job_id: first.id, status: "success" });
    await call(app.broker, Runners.jobs.finish, { token: runner.token, job_id: second.id, status: "failed" });
    await eventually(async () => expect(await deliveries()).toHaveLength(2));
    await call(app.broker, Integrations.deliveries.tick, {});

    const mail = await mailbox.waitFor(a);
    // Notify's subject: the project's name, "Failed pipeline for <ref>", the short sha; GitLab's pipeline headers.
    expect(mail.subject).toMatch(/^app \| Failed pipeline for main \| [0-9a-f]{8}$/);
    expect(mail.headers).toMatchObject({ "x-gitlab-pipeline-id": String(second.pipeline_id), "x-gitlab-pipeline-ref": "main", "x-gitlab-pipeline-status": "failed", "x-gitlab-project-path": "team/sub/app" });
    expect(mail.text).toContain("Your pipeline has failed.");
    expect(mail.text).toContain(`/team/sub/app/-/pipelines/${second.pipeline_id}`);
    expect(mail.html).toContain(`/team/sub/app/-/pipelines/${second.pipeline_id}`);
    expect((await mailbox.waitFor(b)).subject).toBe(mail.subject);
    const mine = (await mailbox.mails()).filter((m) => m.to.some((t) => t.endsWith(`${tag}@example.com`)));
    expect(mine).toHaveLength(2);
    expect(await deliveries()).toEqual([{ slug: "pipelines-email", event_name: Runners.events.pipelineFinished.name, status: "delivered" }]);
  });
});
