import { Gitlab } from "@gitbeaker/rest";
import { call } from "@collab/core";
import { Integrations, KINDS, type FieldDef } from "@collab/integrations-contract";
import { addMember, apiClient, createGroup, createProject, createUser, eventually, GitClient, ProjectClone, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startApp } from "@collab/standalone/test/app";

/**
 * GitLab's integrations catalogue: every slug set up and read back through @gitbeaker/rest's
 * Integrations (table-driven over the catalogue), required parameters named when missing, secrets
 * never shown, project-only slugs refused on groups; build servers (Jenkins, Drone, TeamCity,
 * Bamboo) triggered on a push as each tool expects, received by a local HTTP server.
 *
 * World: private group "team" with project "app"; maint (40) and owner (50) of the group.
 */
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";

let app: TestApp;
let root: ApiClient;
const U = {} as Record<"owner" | "maint", TestUser>;
let team: { id: number };
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  app = await startApp("integrations");
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  team = await createGroup(root, "team", "team", { visibility: "private" });
  project = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  for (const [name, level] of Object.entries({ owner: 50, maint: 40 })) {
    U[name as keyof typeof U] = await createUser(app, name);
    await addMember(app, "groups", team.id, U[name as keyof typeof U].id, level);
  }
});
afterAll(async () => {
  await app.stop();
});

const gl = (u: TestUser) => new Gitlab({ host: app.url, token: u.token });
type Slug = Parameters<ReturnType<typeof gl>["Integrations"]["show"]>[1];

/** A valid value of a field, distinct per field so a leaked secret is found in an answer. */
function sample(f: FieldDef): unknown {
  if (f.name === "jira_issue_transition_id") return "11;21";
  if (f.type === "url") return `https://${f.name.replace(/_/g, "-")}.example.com/x`;
  if (f.type === "boolean") return f.default === true ? false : true;
  if (f.type === "integer") return 1;
  if (f.type === "list") return ["KEY1", "KEY2"];
  if (typeof f.type === "object") return f.type.enum[f.type.enum.length - 1];
  return f.secret ? `s3cret<${f.name}>` : `value-of-${f.name}`;
}
const validParams = (fields: FieldDef[]) => Object.fromEntries(fields.map((f) => [f.name, sample(f)]));

describe("integrations catalogue", () => {
  test("the catalogue holds GitLab 18's slugs (chat notifiers aside)", () => {
    const slugs = KINDS.map((k) => k.slug);
    for (const slug of ["jenkins", "teamcity", "drone-ci", "bamboo", "buildkite", "jira", "redmine", "youtrack", "bugzilla", "custom-issue-tracker", "ewm", "zentao", "clickup", "phorge", "datadog", "emails-on-push", "external-wiki", "github", "harbor", "irker", "pivotaltracker", "prometheus", "pushover", "squash-tm", "confluence", "diffblue-cover", "google-play", "slack-slash-commands", "mattermost-slash-commands"])
      expect(slugs).toContain(slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  test("every slug: set up through gitbeaker, read back, listed; a missing required param is named; secrets never shown", async () => {
    const api = gl(U.maint).Integrations;
    for (const kind of KINDS) {
      const params = validParams(kind.fields);
      const required = kind.fields.find((f) => f.required);
      if (required) {
        const { [required.name]: _left, ...rest } = params;
        const res = await U.maint.api.put(`/projects/${project.id}/integrations/${kind.slug}`, { json: rest });
        expect({ slug: kind.slug, status: res.status, body: res.body }).toEqual({ slug: kind.slug, status: 400, body: { error: `${required.name} is missing` } });
      }
      const set = (await api.edit(project.id, kind.slug as Slug, params)) as unknown as Record<string, unknown>;
      expect(set).toMatchObject({ slug: kind.slug, title: kind.title, active: true, inherited: false });
      const shown = (await api.show(project.id, kind.slug as Slug)) as unknown as { properties: Record<string, unknown> };
      for (const f of kind.fields) {
        if (f.secret) {
          expect({ slug: kind.slug, shown: f.name in shown.properties }).toEqual({ slug: kind.slug, shown: false });
          expect(JSON.stringify(shown)).not.toContain(String(params[f.name]));
        } else expect({ slug: kind.slug, [f.name]: shown.properties[f.name] }).toEqual({ slug: kind.slug, [f.name]: params[f.name] });
      }
    }
    const listed = (await api.all(project.id)) as unknown as { slug: string }[];
    expect(listed.map((i) => i.slug).sort()).toEqual(KINDS.map((k) => k.slug).sort());
    // Secrets are sealed at rest: no row holds one in clear.
    const stored = JSON.stringify((await app.database.db.execute(sql`SELECT properties FROM integrations.integrations`)) as unknown);
    for (const kind of KINDS) for (const f of kind.fields.filter((x) => x.secret)) expect(stored).not.toContain(String(validParams([f])[f.name]));
  });

  test("groups: every slug but the project-only ones; those answer as unknown slugs", async () => {
    for (const kind of KINDS) {
      const res = await U.owner.api.put(`/groups/${team.id}/integrations/${kind.slug}`, { json: validParams(kind.fields) });
      if (kind.projectOnly) expect({ slug: kind.slug, status: res.status, body: res.body }).toEqual({ slug: kind.slug, status: 400, body: { error: "slug does not have a valid value" } });
      else expect({ slug: kind.slug, status: res.status }).toEqual({ slug: kind.slug, status: 200 });
    }
    expect(KINDS.filter((k) => k.projectOnly).map((k) => k.slug).sort()).toEqual(["apple-app-store", "github", "google-play", "jenkins"]);
  });

  test("typed values: jira's auth type is an integer, its project keys a list; a bad type is named", async () => {
    const jira = { url: "https://jira.example.com", password: "pat", jira_auth_type: 1, project_keys: ["APP", "OPS"] };
    const res = await U.maint.api.put(`/projects/${project.id}/integrations/jira`, { json: jira });
    expect(res.status).toBe(200);
    expect(res.body.properties).toMatchObject({ url: "https://jira.example.com", jira_auth_type: 1, project_keys: ["APP", "OPS"] });
    expect(res.body.properties).not.toHaveProperty("password");
    expect(await U.maint.api.put(`/projects/${project.id}/integrations/jira`, { json: { ...jira, jira_auth_type: "x" } })).toMatchObject({ status: 400, body: { error: "jira_auth_type is invalid" } });
    expect(await U.maint.api.put(`/projects/${project.id}/integrations/unknown-tool`, { json: {} })).toMatchObject({ status: 400, body: { error: "slug does not have a valid value" } });
  });

  test("the legacy /services alias of the project routes", async () => {
    const set = await U.maint.api.put(`/projects/${project.id}/services/drone-ci`, { json: { drone_url: "https://drone.example.com", token: "t" } });
    expect(set).toMatchObject({ status: 200, body: { slug: "drone-ci", active: true } });
    expect((await U.maint.api.get(`/projects/${project.id}/services/drone-ci`)).body).toEqual((await U.maint.api.get(`/projects/${project.id}/integrations/drone-ci`)).body);
    expect((await U.maint.api.get(`/projects/${project.id}/services`)).body.map((i: { slug: string }) => i.slug)).toEqual(["drone-ci"]);
    expect((await U.maint.api.delete(`/projects/${project.id}/services/drone-ci`)).status).toBe(204);
    expect(await U.maint.api.get(`/projects/${project.id}/services/nope`)).toMatchObject({ status: 400, body: { error: "slug does not have a valid value" } });
  });
});

describe("build servers triggered on a push", () => {
  let server: http.Server;
  let received: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: data });
        res.writeHead(200).end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    received = [];
  });

  const tick = () => call(app.broker, Integrations.deliveries.tick, {});
  const deliveries = async () =>
    ((await app.database.db.execute(sql`SELECT slug, status, attempts, response_code FROM integrations.integration_deliveries ORDER BY id`)) as unknown as { rows: Record<string, unknown>[] }).rows;
  let git: GitClient;
  beforeAll(() => {
    git = new GitClient();
  });
  afterAll(() => git.cleanUp());
  /** A commit pushed to main with git by maint: its sha. */
  const pushCommit = async (message: string) => {
    const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, U.maint);
    const sha = await clone.commit("main", message);
    await clone.pushOk("main");
    return sha;
  };
  const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}`;

  const pushAndDeliver = async (slug: string, settings: Record<string, unknown>) => {
    expect((await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
    expect((await gl(U.maint).Integrations.edit(project.id, slug as Slug, settings)) as unknown).toMatchObject({ slug, active: true });
    const sha = await pushCommit("Build me");
    await eventually(async () => expect(await deliveries()).toHaveLength(1));
    await tick();
    expect(received).toHaveLength(1);
    expect(await deliveries()).toEqual([{ slug, status: "delivered", attempts: 1, response_code: 200 }]);
    return { request: received[0], sha };
  };

  test("Jenkins: POST <url>/project/<name>, the push payload as JSON, Push Hook, basic auth", async () => {
    const { request, sha } = await pushAndDeliver("jenkins", { jenkins_url: `${base}/ci`, project_name: "app-build", username: "jen", password: "s3cret" });
    expect(request).toMatchObject({ method: "POST", path: "/ci/project/app-build", headers: { "content-type": "application/json", "x-gitlab-event": "Push Hook", authorization: basic("jen", "s3cret") } });
    expect(JSON.parse(request.body)).toMatchObject({ object_kind: "push", ref: "refs/heads/main", after: sha, project_id: project.id, user_username: "maint", total_commits_count: 1, commits: [{ id: sha, title: "Build me" }] });
  });

  test("Drone: POST <url>/hook?owner=&name=&access_token=, the push payload", async () => {
    const { request, sha } = await pushAndDeliver("drone-ci", { drone_url: base, token: "dr0ne" });
    expect(request).toMatchObject({ method: "POST", path: "/hook?owner=team&name=app&access_token=dr0ne", headers: { "x-gitlab-event": "Push Hook" } });
    expect(JSON.parse(request.body)).toMatchObject({ object_kind: "push", after: sha });
  });

  test("TeamCity: POST <url>/httpAuth/app/rest/buildQueue, XML naming branch and build type, basic auth", async () => {
    const { request } = await pushAndDeliver("teamcity", { teamcity_url: base, build_type: "App_Build", username: "tc", password: "pw" });
    expect(request).toMatchObject({ method: "POST", path: "/httpAuth/app/rest/buildQueue", headers: { "content-type": "application/xml", authorization: basic("tc", "pw") } });
    expect(request.body).toBe('<build branchName="main"><buildType id="App_Build"/></build>');
  });

  test("Bamboo: GET <url>/updateAndBuild.action?buildKey=&os_authType=basic, basic auth", async () => {
    const { request } = await pushAndDeliver("bamboo", { ci_server_url: `${base}/bamboo`, build_key: "APP-PLAN", username: "bam", password: "boo" });
    expect(request).toMatchObject({ method: "GET", path: "/bamboo/updateAndBuild.action?buildKey=APP-PLAN&os_authType=basic", headers: { authorization: basic("bam", "boo") }, body: "" });
  });

  test("refused by the outbound guard when local requests are not allowed: nothing received, recorded refused", async () => {
    await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: true } });
    await gl(U.maint).Integrations.edit(project.id, "jenkins" as Slug, { jenkins_url: base, project_name: "p" });
    await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: false } });
    await pushCommit("x");
    await eventually(async () => expect(await deliveries()).toHaveLength(1));
    await tick();
    expect(received).toHaveLength(0);
    expect(await deliveries()).toEqual([{ slug: "jenkins", status: "refused", attempts: 1, response_code: null }]);
  });
});
