import { call } from "@collab/core";
import { Integrations } from "@collab/integrations-contract";
import { Runners } from "@collab/runners-contract";
import { addMember, apiClient, createGroup, createProject, createUser, eventually, GitClient, ProjectClone, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { Gitlab } from "@gitbeaker/rest";
import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startApp } from "@collab/standalone/test/app";

/**
 * The chat notifiers (Slack, Mattermost, Microsoft Teams, Google Chat, Webex Teams, Discord, Pumble,
 * Unify Circuit, Telegram, Matrix) delivering to a local HTTP server standing in for each tool:
 * the method, path, headers and JSON body each tool's API expects on an opened issue and a push;
 * Slack's per-event channel and username; notify_only_broken_pipelines; branches_to_be_notified.
 */
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";

let app: TestApp;
let root: ApiClient;
let maint: TestUser;
let dev: TestUser;
let project: { id: number; web_url: string; path_with_namespace: string };
let git: GitClient;

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}
let server: http.Server;
let received: Received[];
let base: string;

beforeAll(async () => {
  app = await startApp("integrations");
  git = new GitClient();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  git.cleanUp();
  await new Promise<void>((r) => server.close(() => r()));
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  received = [];
  root = apiClient(app.url, app.rootToken);
  const team = await createGroup(root, "team", "team", { visibility: "private" });
  project = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  maint = await createUser(app, "maint");
  dev = await createUser(app, "dev");
  await addMember(app, "groups", team.id, maint.id, 40);
  await addMember(app, "groups", team.id, dev.id, 30);
  expect((await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
});

const statuses = async () =>
  ((await app.database.db.execute(sql`SELECT slug, status FROM integrations.integration_deliveries ORDER BY id`)) as unknown as { rows: { slug: string; status: string }[] }).rows;
/** Ticks the worker until no delivery is left to send. */
async function deliverAll() {
  while ((await call(app.broker, Integrations.deliveries.tick, {})) > 0);
}
/** Sets an integration up as a user would, through gitbeaker's Integrations.edit. */
const setUp = (slug: string, params: Record<string, unknown>) => new Gitlab({ host: app.url, token: maint.token }).Integrations.edit(project.id, slug as never, params as never);
/** A commit "Add <branch> notes" pushed with git by maint (onto `start` for a new branch): its sha. */
async function pushTo(branch: string, start?: string): Promise<string> {
  const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, maint);
  const sha = await clone.commit(branch, `Add ${branch} notes`, start ? { from: `origin/${start}` } : {});
  await clone.pushOk(branch);
  return sha;
}

/** Each tool: its set-up, and the request it must receive for a message whose summary, title and link are given. */
interface Expectation {
  slug: string;
  params: (path: string) => Record<string, unknown>;
  request: (m: { summary: string; title: string; url: string; kind: "issue" | "push" }) => { method: string; path: string | RegExp; headers?: Record<string, string>; body: unknown };
}
const has = (...parts: string[]) => expect.stringMatching(new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*")));
const TOOLS: Expectation[] = [
  {
    slug: "slack",
    params: (path) => ({ webhook: `${base}${path}`, username: "collab-bot", channel: "#dev", push_channel: "#pushes" }),
    request: (m) => ({
      method: "POST",
      path: "/slack",
      body: { text: has("team/app>] ", m.summary), attachments: [{ title: m.title, title_link: m.url }], username: "collab-bot", channel: m.kind === "push" ? "#pushes" : "#dev" },
    }),
  },
  {
    slug: "mattermost",
    params: (path) => ({ webhook: `${base}${path}` }),
    request: (m) => ({ method: "POST", path: "/mattermost", body: { text: has(m.summary), attachments: [{ title: m.title, title_link: m.url }] } }),
  },
  {
    slug: "microsoft-teams",
    params: (path) => ({ webhook: `${base}${path}` }),
    request: (m) => ({ method: "POST", path: "/microsoft-teams", body: { "@type": "MessageCard", summary: has("[team/app] ", m.summary), sections: [{ activityTitle: m.summary, activityText: has(`[${m.title}](${m.url})`) }] } }),
  },
  {
    slug: "hangouts-chat",
    params: (path) => ({ webhook: `${base}${path}?key=k` }),
    request: (m) => ({
      method: "POST",
      path: "/hangouts-chat?key=k&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD",
      body: { text: has(m.summary, `<${m.url}|${m.title}>`), thread: { threadKey: expect.stringMatching(m.kind === "issue" ? /^issue \d+$/ : /^push [0-9a-f]{40}$/) } },
    }),
  },
  { slug: "webex-teams", params: (path) => ({ webhook: `${base}${path}` }), request: (m) => ({ method: "POST", path: "/webex-teams", body: { markdown: has(m.summary, `[${m.title}](${m.url})`) } }) },
  {
    slug: "discord",
    params: (path) => ({ webhook: `${base}${path}` }),
    request: (m) => ({ method: "POST", path: "/discord", body: { content: `[team/app] ${m.summary}`, embeds: [{ title: m.title, url: m.url, color: 0xfc6d26 }] } }),
  },
  { slug: "pumble", params: (path) => ({ webhook: `${base}${path}` }), request: (m) => ({ method: "POST", path: "/pumble", body: { text: has(m.summary, `[${m.title}](${m.url})`) } }) },
  {
    slug: "unify-circuit",
    params: (path) => ({ webhook: `${base}${path}` }),
    request: (m) => ({ method: "POST", path: "/unify-circuit", body: { subject: "team/app", text: has(m.summary, `[${m.title}](${m.url})`), markdown: true } }),
  },
  {
    slug: "telegram",
    params: (path) => ({ hostname: `${base}${path}`, token: "123:tg-secret", room: "@team", thread: "7" }),
    request: (m) => ({ method: "POST", path: "/telegram/bot123:tg-secret/sendMessage", body: { chat_id: "@team", text: has(m.summary, `[${m.title}](${m.url})`), parse_mode: "markdown", message_thread_id: 7 } }),
  },
  {
    slug: "matrix",
    params: (path) => ({ hostname: `${base}${path}`, token: "syt-mx-secret", room: "!room:example.org" }),
    request: (m) => ({
      method: "PUT",
      path: /^\/matrix\/_matrix\/client\/v3\/rooms\/!room%3Aexample\.org\/send\/m\.room\.message\/collab-\d+$/,
      headers: { authorization: "Bearer syt-mx-secret" },
      body: { msgtype: "m.notice", body: has(m.summary), format: "org.matrix.custom.html", formatted_body: has(`<a href="${m.url}">${m.title}</a>`) },
    }),
  },
];

test("every chat notifier receives an opened issue and a push in its tool's format", async () => {
  for (const tool of TOOLS) {
    const res = await setUp(tool.slug, tool.params(`/${tool.slug}`));
    expect({ slug: tool.slug, active: res.active }).toEqual({ slug: tool.slug, active: true });
  }
  const issue = (await dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Broken build" } })).body as { iid: number; web_url: string };
  const sha = await pushTo("main");
  await eventually(async () => expect(await statuses()).toHaveLength(2 * TOOLS.length));
  await deliverAll();
  expect((await statuses()).filter((d) => d.status !== "delivered")).toEqual([]);
  expect(received).toHaveLength(2 * TOOLS.length);

  const messages = {
    issue: { kind: "issue" as const, summary: `Issue #${issue.iid} opened by dev`, title: `#${issue.iid} Broken build`, url: `${project.web_url}/-/issues/${issue.iid}` },
    push: { kind: "push" as const, summary: "maint pushed to branch main", title: "Add main notes", url: `${project.web_url}/-/commits/main` },
  };
  for (const tool of TOOLS) {
    const mine = received.filter((r) => r.path.startsWith(`/${tool.slug}`));
    expect({ slug: tool.slug, count: mine.length }).toEqual({ slug: tool.slug, count: 2 });
    for (const m of Object.values(messages)) {
      const want = tool.request(m);
      const got = mine.find((r) => JSON.stringify(r.body).includes(m.title));
      expect({ slug: tool.slug, kind: m.kind, got }).toMatchObject({
        slug: tool.slug,
        kind: m.kind,
        got: {
          method: want.method,
          path: typeof want.path === "string" ? want.path : expect.stringMatching(want.path),
          headers: { "content-type": "application/json", ...want.headers },
          body: want.body as object,
        },
      });
    }
  }
  // The pushed commits are listed: short sha, title and author.
  const slackPush = received.find((r) => r.path === "/slack" && String(r.body.text).includes("pushed to branch"));
  expect(slackPush?.body.attachments[0].text).toBe(`${sha.slice(0, 8)}: Add main notes - Test Author`);
  // The secrets are never shown back.
  const telegram = (await maint.api.get(`/projects/${project.id}/integrations/telegram`)).body;
  expect(telegram.properties).toMatchObject({ room: "@team", thread: "7" });
  expect(JSON.stringify(telegram)).not.toContain("tg-secret");
});

test("branches_to_be_notified: a push to another branch is left out under `default`, told under `all`", async () => {
  await setUp("slack", { webhook: `${base}/default`, push_events: true, issues_events: false });
  await setUp("mattermost", { webhook: `${base}/all`, branches_to_be_notified: "all", issues_events: false });
  await pushTo("feature", "main");
  await eventually(async () => expect(await statuses()).toHaveLength(2));
  await deliverAll();
  // The left-out delivery is dropped; the other one is sent.
  expect(await statuses()).toEqual([{ slug: "mattermost", status: "delivered" }]);
  expect(received.map((r) => [r.path, r.body.text])).toEqual([["/all", expect.stringContaining("pushed new branch feature")]]);
});

test("notify_only_broken_pipelines: only the failed pipeline is told, to the pipeline channel", async () => {
  await setUp("slack", { webhook: `${base}/ci`, pipeline_events: true, push_events: false, issues_events: false, channel: "#dev", pipeline_channel: "#ci" });
  const runner = (await maint.api.post("/user/runners", { json: { runner_type: "project_type", project_id: project.id } })).body;
  const schedule = (await maint.api.post(`/projects/${project.id}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 1 * * *" } })).body;
  for (let i = 0; i < 2; i++) expect((await maint.api.post(`/projects/${project.id}/pipeline_schedules/${schedule.id}/play`)).status).toBe(201);
  const runnerApi = apiClient(app.url);
  const first = (await runnerApi.post("/jobs/request", { json: { token: runner.token } })).body as { id: number; pipeline_id: number };
  const second = (await runnerApi.post("/jobs/request", { json: { token: runner.token } })).body as { id: number; pipeline_id: number };
  await call(app.broker, Runners.jobs.finish, { token: runner.token, job_id: first.id, status: "success" });
  await call(app.broker, Runners.jobs.finish, { token: runner.token, job_id: second.id, status: "failed" });
  await eventually(async () => expect(await statuses()).toHaveLength(2));
  await deliverAll();
  expect(await statuses()).toEqual([{ slug: "slack", status: "delivered" }]);
  expect(received).toEqual([
    expect.objectContaining({ path: "/ci", body: expect.objectContaining({ channel: "#ci", text: expect.stringContaining(`Pipeline #${second.pipeline_id} of branch main`), attachments: [expect.objectContaining({ title: `Pipeline #${second.pipeline_id} failed` })] }) }),
  ]);
});

test("labels_to_be_notified: match_any and match_all on issues and on comments by their issue's labels; pushes are not filtered", async () => {
  for (const name of ["bug", "urgent"]) expect((await maint.api.post(`/projects/${project.id}/labels`, { json: { name, color: "#FF0000" } })).status).toBe(201);
  // Slack tells what carries any of the labels (the `~` of a reference is ignored); Mattermost what carries both.
  await setUp("slack", { webhook: `${base}/any`, labels_to_be_notified: "~bug, urgent", note_events: true, push_events: true });
  await setUp("mattermost", { webhook: `${base}/all`, labels_to_be_notified: "bug,urgent", labels_to_be_notified_behavior: "match_all", note_events: true, push_events: false });
  const plain = (await dev.api.post(`/projects/${project.id}/issues`, { json: { title: "No labels" } })).body as { iid: number };
  const bug = (await dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Only bug", labels: "bug" } })).body as { iid: number };
  const both = (await dev.api.post(`/projects/${project.id}/issues`, { json: { title: "Bug and urgent", labels: "bug,urgent" } })).body as { iid: number };
  await dev.api.post(`/projects/${project.id}/issues/${plain.iid}/notes`, { json: { body: "on the plain one" } });
  await dev.api.post(`/projects/${project.id}/issues/${both.iid}/notes`, { json: { body: "on the labelled one" } });
  // A push has no labels: the filter does not apply to it.
  await pushTo("main");
  // A delivery is recorded per event and active notifier (Mattermost's push too); the worker drops what is not told.
  await eventually(async () => expect(await statuses()).toHaveLength(12));
  await deliverAll();
  const told = (path: string) => received.filter((r) => r.path === path).map((r) => r.body.attachments[0].title);
  expect(told("/any").sort()).toEqual([`#${bug.iid} Only bug`, `#${both.iid} Bug and urgent`, "Add main notes", "Bug and urgent"].sort());
  expect(told("/all").sort()).toEqual([`#${both.iid} Bug and urgent`, "Bug and urgent"].sort());
  expect(received).toHaveLength(6);
});
