import { call } from "@collab/core";
import { Packages } from "@collab/packages-contract";
import { apiClient, assertStatus, createProject, eventually, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { countRows, download, generic, packagesWorld, packageTestEnv, putGeneric, runningJob, type PackagesWorld } from "./packages-world";

/**
 * The Packages API: project and group lists with their filters, orders and statuses, one
 * package, its files and pipelines (keyset), deletion (and the worker that removes the bytes),
 * protection rules, and who may do what (roles, deploy tokens, job tokens).
 */
let app: TestApp;
let W: PackagesWorld;

beforeAll(async () => {
  packageTestEnv();
  app = await startApp("packages-api");
});
beforeEach(async () => {
  await app.reset();
  W = await packagesWorld(app);
});
afterAll(() => app.stop());

const auth = (token: string) => ({ "PRIVATE-TOKEN": token });
/** Uploads one generic file as `token` (default: the Maintainer) and answers its record. */
async function upload(projectId: number, name: string, version: string, file = "f.txt", opts: { token?: string; status?: string; body?: string } = {}) {
  const q = new URLSearchParams({ select: "package_file", ...(opts.status ? { status: opts.status } : {}) });
  const res = await putGeneric(app, `${generic(projectId, name, version, file)}?${q}`, Buffer.from(opts.body ?? `${name}@${version}/${file}`), auth(opts.token ?? W.users.maint.token));
  if (res.status !== 200) throw new Error(`upload ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; package_id: number };
}
async function publishNpm(projectId: number, name: string, version: string, token = W.users.maint.token) {
  const doc = { name, versions: { [version]: { name, version, dist: {} } }, "dist-tags": { latest: version }, _attachments: { [`${name}-${version}.tgz`]: { data: Buffer.from(`${name}@${version}`).toString("base64") } } };
  const res = await fetch(`${app.url}/api/v4/projects/${projectId}/packages/npm/${encodeURIComponent(name)}`, { method: "PUT", headers: { "Content-Type": "application/json", ...auth(token) }, body: JSON.stringify(doc) });
  if (res.status !== 200) throw new Error(`npm ${name}: ${res.status} ${await res.text()}`);
}
const names = (body: { name: string; version: string }[]) => body.map((p) => `${p.name}@${p.version}`);

describe("lists", () => {
  test("project list: default statuses, filters and orders", async () => {
    await upload(W.priv.id, "beta", "2.0.0");
    await upload(W.priv.id, "alpha", "1.0.0");
    await publishNpm(W.priv.id, "@reg/alpha-js", "0.1.0");
    await upload(W.priv.id, "hidden", "1.0.0", "f.txt", { status: "hidden" });
    const api = W.users.reporter.api;
    const list = await api.get(`/projects/${W.priv.id}/packages`);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total")).toBe("3");
    expect(names(list.body)).toEqual(["beta@2.0.0", "alpha@1.0.0", "@reg/alpha-js@0.1.0"]);
    expect(list.body[0]).toEqual({
      id: expect.any(Number),
      name: "beta",
      version: "2.0.0",
      package_type: "generic",
      status: "default",
      _links: { web_path: `/${W.priv.path_with_namespace}/-/packages/${list.body[0].id}` },
      created_at: expect.stringMatching(/Z$/),
      last_downloaded_at: null,
      tags: [],
    });
    const q = async (query: Record<string, string | number | boolean>) => names((await api.get(`/projects/${W.priv.id}/packages`, { query })).body);
    expect(await q({ order_by: "name" })).toEqual(["@reg/alpha-js@0.1.0", "alpha@1.0.0", "beta@2.0.0"]);
    expect(await q({ order_by: "name", sort: "desc" })).toEqual(["beta@2.0.0", "alpha@1.0.0", "@reg/alpha-js@0.1.0"]);
    expect(await q({ order_by: "version" })).toEqual(["@reg/alpha-js@0.1.0", "alpha@1.0.0", "beta@2.0.0"]);
    expect(await q({ order_by: "type", sort: "desc" })).toEqual(["@reg/alpha-js@0.1.0", "alpha@1.0.0", "beta@2.0.0"]);
    expect(await q({ package_type: "npm" })).toEqual(["@reg/alpha-js@0.1.0"]);
    expect(await q({ package_name: "ALPHA" })).toEqual(["alpha@1.0.0", "@reg/alpha-js@0.1.0"]);
    expect(await q({ package_name: "%" })).toEqual([]);
    expect(await q({ package_version: "2.0.0" })).toEqual(["beta@2.0.0"]);
    expect(await q({ status: "hidden" })).toEqual(["hidden@1.0.0"]);
    expect(await q({ include_versionless: true })).toHaveLength(3);
    expect(await q({ per_page: 1, page: 2 })).toEqual(["alpha@1.0.0"]);
    expect((await api.get(`/projects/${W.priv.id}/packages`, { query: { package_type: "rubygems" } })).body).toEqual({ error: "package_type does not have a valid value" });
    expect((await api.get(`/projects/${W.priv.id}/packages`, { query: { order_by: "size" } })).body).toEqual({ error: "order_by does not have a valid value" });
    // The Maintainer may delete: delete_api_path is there for them only.
    const mine = (await W.users.maint.api.get(`/projects/${W.priv.id}/packages`)).body;
    expect(mine[0]._links.delete_api_path).toBe(`${process.env.EXTERNAL_URL ?? "http://collab.test"}/api/v4/projects/${W.priv.id}/packages/${mine[0].id}`);
  });

  test("anonymous callers list public projects' packages only", async () => {
    await upload(W.pub.id, "open", "1.0.0");
    await upload(W.priv.id, "closed", "1.0.0");
    const anon = apiClient(app.url);
    expect(names((await anon.get(`/projects/${W.pub.id}/packages`)).body)).toEqual(["open@1.0.0"]);
    expect((await anon.get(`/projects/${W.priv.id}/packages`)).body).toEqual({ message: "404 Project Not Found" });
    expect(names((await anon.get(`/groups/${W.group.id}/packages`)).body)).toEqual(["open@1.0.0"]);
  });

  test("group list: subgroups, exclude_subgroups, project_path order, and only projects the caller reads", async () => {
    await upload(W.priv.id, "p1", "1.0.0");
    await upload(W.pub.id, "p2", "1.0.0");
    await upload(W.subPriv.id, "p3", "1.0.0");
    const api = W.users.guest.api;
    const all = (await api.get(`/groups/${W.group.id}/packages`)).body;
    expect(names(all)).toEqual(["p1@1.0.0", "p2@1.0.0", "p3@1.0.0"]);
    expect(all[0]).toMatchObject({ project_id: W.priv.id, project_path: W.priv.path_with_namespace });
    expect(names((await api.get(`/groups/${W.group.id}/packages`, { query: { exclude_subgroups: true } })).body)).toEqual(["p1@1.0.0", "p2@1.0.0"]);
    expect(names((await api.get(`/groups/${W.group.id}/packages`, { query: { order_by: "project_path", sort: "desc" } })).body)).toEqual(["p3@1.0.0", "p2@1.0.0", "p1@1.0.0"]);
    expect(names((await api.get(`/groups/${W.group.id}/packages`, { query: { order_by: "project_path" } })).body)).toEqual(["p1@1.0.0", "p2@1.0.0", "p3@1.0.0"]);
    expect(names((await api.get(`/groups/${W.sub.id}/packages`)).body)).toEqual(["p3@1.0.0"]);
    // The outsider sees the public project's only; a hidden group is 404.
    expect(names((await W.users.outsider.api.get(`/groups/${W.group.id}/packages`)).body)).toEqual(["p2@1.0.0"]);
    assertStatus(await W.root.put(`/groups/${W.sub.id}`, { json: { visibility: "private" } }), 200, "private subgroup");
    expect((await W.users.outsider.api.get(`/groups/${W.sub.id}/packages`)).body).toEqual({ message: "404 Group Not Found" });
    expect((await api.get(`/groups/${W.group.id}/packages`, { query: { package_type: "terraform_module" } })).body).toEqual({ error: "package_type does not have a valid value" });
  });
});

describe("one package, its files and pipelines", () => {
  test("files order and sort; a package not shown is 404", async () => {
    const a = await upload(W.priv.id, "files", "1.0.0", "b.txt");
    await upload(W.priv.id, "files", "1.0.0", "a.txt");
    await upload(W.priv.id, "files", "1.0.0", "c.txt");
    const path = `/projects/${W.priv.id}/packages/${a.package_id}/package_files`;
    const q = async (query: Record<string, string>) => (await W.users.guest.api.get(path, { query })).body.map((f: { file_name: string }) => f.file_name);
    expect(await q({})).toEqual(["b.txt", "a.txt", "c.txt"]);
    expect(await q({ sort: "desc" })).toEqual(["c.txt", "a.txt", "b.txt"]);
    expect(await q({ order_by: "file_name" })).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(await q({ order_by: "file_name", sort: "desc" })).toEqual(["c.txt", "b.txt", "a.txt"]);
    expect(await q({ order_by: "created_at" })).toEqual(["b.txt", "a.txt", "c.txt"]);
    expect((await W.users.guest.api.get(path, { query: { order_by: "size" } })).body).toEqual({ error: "order_by does not have a valid value" });
    expect((await W.users.guest.api.get(`/projects/${W.priv.id}/packages/999999`)).body).toEqual({ message: "404 Not found" });
    // A package of another project, asked through this one, is not found.
    const other = await upload(W.pub.id, "elsewhere", "1.0.0");
    expect((await W.users.guest.api.get(`/projects/${W.priv.id}/packages/${other.package_id}`)).status).toBe(404);
    expect((await W.users.guest.api.get(`/projects/${W.priv.id}/packages/${other.package_id}/package_files`)).status).toBe(404);
  });

  test("a job token publishes as its user into its pipeline; the package shows it and lists pipelines by keyset", async () => {
    const ci = await createProject(W.users.maint.api, { name: "ci", namespace_id: W.group.id, visibility: "private", initialize_with_readme: true });
    const jobs = [] as { token: string; pipeline_id: number }[];
    for (let i = 0; i < 3; i++) jobs.push(await runningJob(app, W.users.dev.api, ci.id, W.root));
    const path = generic(ci.id, "built", "1.0.0", "out.bin");
    for (const job of jobs) expect((await putGeneric(app, path, Buffer.from("artifact"), { "JOB-TOKEN": job.token })).status).toBe(201);
    // Another project's job token reaches nothing here; an unknown one is refused.
    const other = await createProject(W.users.maint.api, { name: "other-ci", namespace_id: W.group.id, visibility: "private", initialize_with_readme: true });
    const foreign = await runningJob(app, W.users.dev.api, other.id, W.root);
    expect((await putGeneric(app, path, Buffer.from("x"), { "JOB-TOKEN": foreign.token })).body).toEqual({ message: "404 Project Not Found" });
    expect((await putGeneric(app, path, Buffer.from("x"), { "JOB-TOKEN": "glcbt-unknown" })).status).toBe(401);
    // The job token reads with its user's role.
    expect((await download(app, path, { "JOB-TOKEN": jobs[0].token })).bytes.toString()).toBe("artifact");
    const list = await fetch(`${app.url}/api/v4/projects/${ci.id}/packages`, { headers: { "JOB-TOKEN": jobs[0].token } });
    expect(list.status).toBe(200);

    const [pkg] = (await W.users.guest.api.get(`/projects/${ci.id}/packages`)).body;
    const one = (await W.users.guest.api.get(`/projects/${ci.id}/packages/${pkg.id}`)).body;
    const newest = Math.max(...jobs.map((j) => j.pipeline_id));
    expect(one.pipeline).toEqual({
      id: newest,
      iid: expect.any(Number),
      project_id: ci.id,
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      ref: "main",
      status: expect.any(String),
      source: "schedule",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      web_url: expect.stringContaining(`/-/pipelines/${newest}`),
      user: { name: "dev", avatar_url: null },
    });
    expect(one.pipelines.map((p: { id: number }) => p.id)).toEqual(jobs.map((j) => j.pipeline_id).sort((a, b) => b - a));
    const files = (await W.users.guest.api.get(`/projects/${ci.id}/packages/${pkg.id}/package_files`)).body;
    expect(files.map((f: { pipelines: { id: number }[] }) => f.pipelines.map((p) => p.id))).toEqual(jobs.map((j) => [j.pipeline_id]));

    // Keyset pages: id desc, Link rel="next" until the last page, no X-Total.
    const first = await W.users.guest.api.get(`/projects/${ci.id}/packages/${pkg.id}/pipelines`, { query: { per_page: 2 } });
    expect(first.body.map((p: { id: number }) => p.id)).toEqual(one.pipelines.slice(0, 2).map((p: { id: number }) => p.id));
    expect(first.body[0].user).toMatchObject({ id: W.users.dev.id, username: "dev" });
    expect(first.headers.get("x-total")).toBeNull();
    const link = first.headers.get("link")!;
    expect(link).toMatch(/; rel="next"$/);
    const next = new URL(link.slice(1, link.indexOf(">")));
    expect(next.searchParams.get("cursor")).toBeTruthy();
    const second = await W.users.guest.api.get(`/projects/${ci.id}/packages/${pkg.id}/pipelines`, { query: Object.fromEntries(next.searchParams) });
    expect(second.body.map((p: { id: number }) => p.id)).toEqual([one.pipelines[2].id]);
    expect(second.headers.get("link")).toBeNull();
    expect((await W.users.guest.api.get(`/projects/${ci.id}/packages/${pkg.id}/pipelines`, { query: { per_page: 100 } })).body).toHaveLength(3);
    expect((await W.users.guest.api.get(`/projects/${ci.id}/packages/${pkg.id}/pipelines`, { query: { cursor: "garbage!" } })).status).toBe(400);
  });
});

describe("deletion", () => {
  test("DELETE a package: 204, gone from the API at once, its bytes removed by the worker", async () => {
    const f = await upload(W.priv.id, "doomed", "1.0.0", "f.bin", { body: "x".repeat(600 * 1024) });
    await upload(W.priv.id, "kept", "1.0.0");
    expect((await W.users.dev.api.delete(`/projects/${W.priv.id}/packages/${f.package_id}`)).status).toBe(403);
    expect((await W.users.maint.api.delete(`/projects/${W.priv.id}/packages/${f.package_id}`)).status).toBe(204);
    expect((await W.users.maint.api.get(`/projects/${W.priv.id}/packages/${f.package_id}`)).status).toBe(404);
    expect(names((await W.users.maint.api.get(`/projects/${W.priv.id}/packages`)).body)).toEqual(["kept@1.0.0"]);
    expect(names((await W.users.maint.api.get(`/projects/${W.priv.id}/packages`, { query: { status: "pending_destruction" } })).body)).toEqual(["doomed@1.0.0"]);
    expect((await download(app, generic(W.priv.id, "doomed", "1.0.0", "f.bin"), auth(W.users.maint.token))).status).toBe(404);
    expect((await W.users.maint.api.delete(`/projects/${W.priv.id}/packages/${f.package_id}`)).status).toBe(404);
    expect(await countRows(app, "file_chunks")).toBe(4);

    expect(await call(app.broker, Packages.destruction.tick, {})).toEqual({ packages: 1, files: 1 });
    expect(await countRows(app, "file_chunks")).toBe(1);
    expect((await W.users.maint.api.get(`/projects/${W.priv.id}/packages`, { query: { status: "pending_destruction" } })).body).toEqual([]);
  });

  test("DELETE a package file: 204, the package keeps its other files", async () => {
    const a = await upload(W.priv.id, "two", "1.0.0", "a.txt");
    const b = await upload(W.priv.id, "two", "1.0.0", "b.txt");
    const base = `/projects/${W.priv.id}/packages/${a.package_id}/package_files`;
    expect((await W.users.dev.api.delete(`${base}/${a.id}`)).status).toBe(403);
    expect((await W.users.maint.api.delete(`${base}/${a.id}`)).status).toBe(204);
    expect((await W.users.maint.api.delete(`${base}/${a.id}`)).body).toEqual({ message: "404 Not Found" });
    expect((await W.users.maint.api.get(base)).body.map((f: { id: number }) => f.id)).toEqual([b.id]);
    // A file of another package, addressed through this one, is not found.
    const other = await upload(W.priv.id, "three", "1.0.0");
    expect((await W.users.maint.api.delete(`${base}/${other.id}`)).status).toBe(404);
    await call(app.broker, Packages.destruction.tick, {});
    expect(await countRows(app, "package_files")).toBe(2);
  });

  test("a deleted project's packages go too", async () => {
    const p = await createProject(W.users.maint.api, { name: "gone", namespace_id: W.group.id, visibility: "private" });
    await upload(p.id, "orphan", "1.0.0");
    assertStatus(await W.users.owner.api.delete(`/projects/${p.id}`), 202, "mark");
    const purge = await W.users.owner.api.delete(`/projects/${p.id}`, { query: { permanently_remove: true, full_path: `${W.group.full_path}/gone` } });
    expect([202, 204]).toContain(purge.status);
    await eventually(async () => {
      await call(app.broker, Packages.destruction.tick, {});
      expect(await countRows(app, "packages")).toBe(0);
    });
  });
});

describe("protection rules", () => {
  test("CRUD with GitLab's fields and validations, Maintainer and up", async () => {
    const base = `/projects/${W.priv.id}/packages/protection/rules`;
    const json = { package_name_pattern: "@reg/secure-*", package_type: "npm", minimum_access_level_for_push: "maintainer", minimum_access_level_for_delete: "owner" };
    expect((await apiClient(app.url).post(base, { json })).status).toBe(401);
    expect((await W.users.dev.api.post(base, { json })).status).toBe(403);
    expect((await W.users.outsider.api.get(base)).status).toBe(404);
    expect((await W.users.dev.api.get(base)).status).toBe(403);
    const created = await W.users.maint.api.post(base, { json });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), project_id: W.priv.id, package_name_pattern: "@reg/secure-*", package_type: "npm", minimum_access_level_for_delete: "owner", minimum_access_level_for_push: "maintainer" });
    expect((await W.users.maint.api.post(base, { json })).body).toEqual({ message: { error: "Package name pattern has already been taken" } });
    expect((await W.users.maint.api.post(base, { json: { ...json, package_name_pattern: "not a name!" } })).status).toBe(422);
    expect((await W.users.maint.api.post(base, { json: { package_name_pattern: "x", package_type: "generic" } })).body).toEqual({
      message: { error: "A rule must have at least a minimum access role for push or delete." },
    });
    expect((await W.users.maint.api.post(base, { json: { ...json, minimum_access_level_for_push: "developer" } })).body).toEqual({ error: "minimum_access_level_for_push does not have a valid value" });
    expect((await W.users.maint.api.post(base, { json: { package_type: "npm" } })).body).toEqual({ error: "package_name_pattern is missing" });

    const id = created.body.id;
    const patched = await W.users.maint.api.patch(`${base}/${id}`, { json: { minimum_access_level_for_push: "owner", minimum_access_level_for_delete: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ minimum_access_level_for_push: "owner", minimum_access_level_for_delete: null });
    expect((await W.users.maint.api.get(base)).body).toEqual([patched.body]);
    // A rule of another project, through this one: 404.
    const foreign = (await W.root.post(`/projects/${W.pub.id}/packages/protection/rules`, { json })).body;
    expect((await W.users.maint.api.patch(`${base}/${foreign.id}`, { json: { minimum_access_level_for_push: "admin" } })).status).toBe(404);
    expect((await W.users.maint.api.delete(`${base}/${foreign.id}`)).status).toBe(404);
    expect((await W.users.maint.api.delete(`${base}/${id}`)).status).toBe(204);
    expect((await W.users.maint.api.get(base)).body).toEqual([]);
  });

  test("pushing below the push level and deleting below the delete level are 403", async () => {
    const base = `/projects/${W.priv.id}/packages/protection/rules`;
    assertStatus(await W.users.maint.api.post(base, { json: { package_name_pattern: "Release-*", package_type: "generic", minimum_access_level_for_push: "maintainer", minimum_access_level_for_delete: "owner" } }), 201, "rule");
    const path = generic(W.priv.id, "release-tool", "1.0.0", "f.txt");
    expect((await putGeneric(app, path, Buffer.from("x"), auth(W.users.dev.token))).body).toEqual({ message: "403 Forbidden - Package protected." });
    expect((await putGeneric(app, generic(W.priv.id, "other-tool", "1.0.0", "f.txt"), Buffer.from("x"), auth(W.users.dev.token))).status).toBe(201);
    const f = await upload(W.priv.id, "release-tool", "1.0.0");
    // Deploy tokens never push protected packages.
    const deploy = assertStatus(await W.users.maint.api.post(`/projects/${W.priv.id}/deploy_tokens`, { json: { name: "d", scopes: ["write_package_registry"] } }), 201, "deploy").body.token;
    expect((await putGeneric(app, path, Buffer.from("x"), { "Deploy-Token": deploy })).status).toBe(403);
    expect((await putGeneric(app, generic(W.priv.id, "free", "1.0.0", "f.txt"), Buffer.from("x"), { "Deploy-Token": deploy })).status).toBe(201);

    expect((await W.users.maint.api.delete(`/projects/${W.priv.id}/packages/${f.package_id}`)).body).toEqual({ message: "403 Forbidden - Package is deletion protected." });
    expect((await W.users.maint.api.delete(`/projects/${W.priv.id}/packages/${f.package_id}/package_files/${f.id}`)).status).toBe(403);
    expect((await W.users.owner.api.delete(`/projects/${W.priv.id}/packages/${f.package_id}`)).status).toBe(204);

    assertStatus(await W.users.maint.api.post(base, { json: { package_name_pattern: "@reg/*", package_type: "npm", minimum_access_level_for_push: "owner" } }), 201, "npm rule");
    await expect(publishNpm(W.priv.id, "@reg/locked", "1.0.0", W.users.maint.token)).rejects.toThrow(/403 .*Package protected\./);
    await publishNpm(W.priv.id, "@reg/locked", "1.0.0", W.users.owner.token);
  });
});

describe("permissions", () => {
  test("who reads, publishes and deletes (roles, anonymous, outsiders, deploy tokens)", async () => {
    const f = await upload(W.priv.id, "matrix", "1.0.0");
    const read = (token: string | null) => (token ? apiClient(app.url, token) : apiClient(app.url)).get(`/projects/${W.priv.id}/packages/${f.package_id}`);
    expect((await read(null)).status).toBe(404);
    expect((await read(W.users.outsider.token)).status).toBe(404);
    for (const role of ["guest", "reporter", "dev", "maint", "owner"] as const) expect((await read(W.users[role].token)).status).toBe(200);
    expect((await read(app.rootToken)).status).toBe(200);

    const put = (headers: Record<string, string>) => putGeneric(app, generic(W.priv.id, "matrix", "1.0.0", "g.txt"), Buffer.from("x"), headers);
    for (const role of ["guest", "reporter"] as const) expect((await put(auth(W.users[role].token))).status).toBe(403);
    for (const role of ["dev", "maint", "owner"] as const) expect((await put(auth(W.users[role].token))).status).toBe(201);

    const del = (token: string) => apiClient(app.url, token).delete(`/projects/${W.priv.id}/packages/${f.package_id}/package_files/${f.id}`);
    for (const role of ["guest", "reporter", "dev"] as const) expect((await del(W.users[role].token)).status).toBe(403);
    expect((await del(W.users.maint.token)).status).toBe(204);

    // Deploy tokens: read scope downloads, write scope uploads; the Packages API refuses them.
    const token = async (scopes: string[]) => assertStatus(await W.users.maint.api.post(`/projects/${W.priv.id}/deploy_tokens`, { json: { name: scopes.join(), scopes } }), 201, "deploy").body;
    const reader = await token(["read_package_registry"]);
    const writer = await token(["write_package_registry"]);
    const path = generic(W.priv.id, "matrix", "1.0.0", "g.txt");
    expect((await download(app, path, { "Deploy-Token": reader.token })).status).toBe(200);
    expect((await download(app, path, { Authorization: `Basic ${Buffer.from(`${reader.username}:${reader.token}`).toString("base64")}` })).status).toBe(200);
    expect((await put({ "Deploy-Token": reader.token })).status).toBe(403);
    expect((await put({ "Deploy-Token": writer.token })).status).toBe(201);
    expect((await download(app, path, { "Deploy-Token": writer.token })).status).toBe(200);
    expect((await fetch(`${app.url}/api/v4/projects/${W.priv.id}/packages`, { headers: { "Deploy-Token": reader.token } })).status).toBe(401);
    // A group deploy token reaches the group's projects, not others.
    const groupToken = assertStatus(await W.users.owner.api.post(`/groups/${W.sub.id}/deploy_tokens`, { json: { name: "g", scopes: ["read_package_registry"] } }), 201, "group deploy").body.token;
    const deep = await upload(W.subPriv.id, "deep", "1.0.0");
    expect(deep.id).toBeGreaterThan(0);
    expect((await download(app, generic(W.subPriv.id, "deep", "1.0.0", "f.txt"), { "Deploy-Token": groupToken })).status).toBe(200);
    expect((await download(app, path, { "Deploy-Token": groupToken })).status).toBe(404);
  });
});
