import { apiClient, assertStatus, type TestApp } from "@collab/testing";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startApp } from "@collab/standalone/test/app";
import { packagesWorld, packageTestEnv, type PackagesWorld } from "./packages-world";

/**
 * The npm registry of a project, driven by the real npm CLI (no network beyond the test app):
 * `npm publish` from a scratch package with an .npmrc pointing the scope at the project, then
 * `npm install` in another folder, with a personal access token and with deploy tokens; plus the
 * metadata document, tarball, dist-tags and the answers npm shows for refusals.
 */
let app: TestApp;
let W: PackagesWorld;
let scratch: string;
const run = promisify(execFile);

beforeAll(async () => {
  packageTestEnv();
  app = await startApp("packages-npm");
});
beforeEach(async () => {
  await app.reset();
  W = await packagesWorld(app);
  scratch = mkdtempSync(path.join(tmpdir(), "collab-npm-"));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));
afterAll(() => app.stop());

const registryOf = (projectId: number) => `${app.url}/api/v4/projects/${projectId}/packages/npm/`;

/** A folder with an .npmrc for the scope @reg on the project's registry, authenticated with `token`. */
function npmFolder(name: string, projectId: number, token: string) {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const registry = registryOf(projectId);
  const npmrc = path.join(dir, ".npmrc");
  writeFileSync(npmrc, `@reg:registry=${registry}\n${registry.replace(/^https?:/, "")}:_authToken=${token}\n`);
  return { dir, npmrc, registry };
}

/** npm with only this folder's config, its own cache, and no network: tarball URLs on EXTERNAL_URL's host go to the registry's. */
async function npm(folder: { dir: string; npmrc: string; registry: string }, args: string[]) {
  const external = new URL(process.env.EXTERNAL_URL ?? "http://collab.test").host;
  const env = { PATH: process.env.PATH ?? "", HOME: scratch, npm_config_cache: path.join(scratch, "cache"), npm_config_update_notifier: "false" };
  const flags = ["--userconfig", folder.npmrc, "--cache", path.join(scratch, "cache"), "--registry", folder.registry, `--replace-registry-host=${external}`, "--no-audit", "--no-fund", "--loglevel=error"];
  try {
    const out = await run("npm", [...args, ...flags], { cwd: folder.dir, env, timeout: 60_000 });
    return { code: 0, stdout: out.stdout, stderr: out.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

function writePackage(dir: string, name: string, version: string, body: string) {
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version, main: "index.js", license: "MIT", readme: "not kept" }, null, 2));
  writeFileSync(path.join(dir, "index.js"), body);
}

async function publishAndInstall(token: string, installToken = token) {
  const src = npmFolder("src", W.priv.id, token);
  writePackage(src.dir, "@reg/hello", "1.0.0", "module.exports = 'hello from 1.0.0';\n");
  const published = await npm(src, ["publish"]);
  expect(published.stderr).not.toMatch(/ERR!/);
  expect(published.code).toBe(0);

  const dst = npmFolder("dst", W.priv.id, installToken);
  writeFileSync(path.join(dst.dir, "package.json"), JSON.stringify({ name: "consumer", version: "0.0.0", private: true }));
  const installed = await npm(dst, ["install", "@reg/hello"]);
  expect(installed.stderr).not.toMatch(/ERR!/);
  expect(installed.code).toBe(0);
  expect(readFileSync(path.join(dst.dir, "node_modules/@reg/hello/index.js"), "utf8")).toBe("module.exports = 'hello from 1.0.0';\n");
  const lock = JSON.parse(readFileSync(path.join(dst.dir, "package-lock.json"), "utf8"));
  return { src, dst, lock };
}

test("npm publish and npm install with a personal access token", async () => {
  const { lock } = await publishAndInstall(W.users.dev.token, W.users.guest.token);
  const entry = lock.packages["node_modules/@reg/hello"];
  expect(entry.version).toBe("1.0.0");
  expect(entry.resolved).toBe(`${process.env.EXTERNAL_URL ?? "http://collab.test"}/api/v4/projects/${W.priv.id}/packages/npm/@reg/hello/-/@reg/hello-1.0.0.tgz`);
  expect(entry.integrity).toMatch(/^sha512-/);

  // What the API shows of it.
  const [pkg] = (await W.users.dev.api.get(`/projects/${W.priv.id}/packages`)).body;
  expect(pkg).toMatchObject({ name: "@reg/hello", version: "1.0.0", package_type: "npm", status: "default", tags: [{ name: "latest" }] });
  const [file] = (await W.users.dev.api.get(`/projects/${W.priv.id}/packages/${pkg.id}/package_files`)).body;
  expect(file.file_name).toBe("@reg/hello-1.0.0.tgz");

  // The metadata document npm read, and the tarball it points at.
  const meta = await W.users.dev.api.get(`/projects/${W.priv.id}/packages/npm/@reg%2fhello`);
  expect(meta.status).toBe(200);
  expect(meta.body).toEqual({
    name: "@reg/hello",
    versions: {
      "1.0.0": {
        name: "@reg/hello",
        version: "1.0.0",
        dist: { shasum: file.file_sha1, tarball: entry.resolved, integrity: entry.integrity },
      },
    },
    "dist-tags": { latest: "1.0.0" },
  });
  const tgz = await fetch(`${app.url}/api/v4/projects/${W.priv.id}/packages/npm/@reg/hello/-/@reg/hello-1.0.0.tgz`, { headers: { "PRIVATE-TOKEN": W.users.guest.token } });
  const bytes = Buffer.from(await tgz.arrayBuffer());
  expect(tgz.status).toBe(200);
  expect(createHash("sha1").update(bytes).digest("hex")).toBe(file.file_sha1);
  expect(`sha512-${createHash("sha512").update(bytes).digest("base64")}`).toBe(entry.integrity);
});

test("npm publish and npm install with deploy tokens (write to publish, read to install)", async () => {
  const create = async (scopes: string[]) =>
    assertStatus(await W.users.maint.api.post(`/projects/${W.priv.id}/deploy_tokens`, { json: { name: scopes[0], scopes } }), 201, "deploy token").body.token as string;
  const write = await create(["write_package_registry"]);
  const read = await create(["read_package_registry"]);

  // A read-only deploy token cannot publish.
  const denied = npmFolder("denied", W.priv.id, read);
  writePackage(denied.dir, "@reg/hello", "0.9.0", "nope\n");
  const refused = await npm(denied, ["publish"]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/403|insufficient_scope/);

  await publishAndInstall(write, read);
  const [pkg] = (await W.users.dev.api.get(`/projects/${W.priv.id}/packages`)).body;
  expect(pkg).toMatchObject({ name: "@reg/hello", version: "1.0.0" });

  // A deploy token of another project reaches nothing here.
  const otherToken = assertStatus(await W.root.post(`/projects/${W.pub.id}/deploy_tokens`, { json: { name: "o", scopes: ["read_package_registry"] } }), 201, "other").body.token;
  expect((await fetch(`${registryOf(W.priv.id)}@reg%2fhello`, { headers: { Authorization: `Bearer ${otherToken}` } })).status).toBe(404);
});

test("npm refuses to publish over a version the registry has; a new version and dist-tags follow", async () => {
  const src = npmFolder("src", W.priv.id, W.users.dev.token);
  writePackage(src.dir, "@reg/tagged", "1.0.0", "v1\n");
  expect((await npm(src, ["publish"])).code).toBe(0);
  const again = await npm(src, ["publish"]);
  expect(again.code).not.toBe(0);
  // npm reads the registry's document first and refuses itself (the registry's own 403 is below).
  expect(again.stderr).toMatch(/cannot publish over the previously published versions: 1\.0\.0/);

  writePackage(src.dir, "@reg/tagged", "2.0.0-beta.1", "v2 beta\n");
  expect((await npm(src, ["publish", "--tag", "beta"])).code).toBe(0);
  const api = W.users.dev.api;
  expect((await api.get(`/projects/${W.priv.id}/packages/npm/-/package/@reg%2ftagged/dist-tags`)).body).toEqual({ latest: "1.0.0", beta: "2.0.0-beta.1" });

  expect((await npm(src, ["dist-tag", "add", "@reg/tagged@2.0.0-beta.1", "next"])).code).toBe(0);
  expect((await npm(src, ["dist-tag", "rm", "@reg/tagged", "beta"])).code).not.toBe(0); // Developer: deleting a tag needs Maintainer
  const maint = npmFolder("maint", W.priv.id, W.users.maint.token);
  expect((await npm(maint, ["dist-tag", "rm", "@reg/tagged", "beta"])).code).toBe(0);
  expect((await api.get(`/projects/${W.priv.id}/packages/npm/-/package/@reg%2ftagged/dist-tags`)).body).toEqual({ latest: "1.0.0", next: "2.0.0-beta.1" });

  // The single package lists its other version; tags move with dist-tag.
  const list = (await api.get(`/projects/${W.priv.id}/packages`, { query: { order_by: "version" } })).body;
  expect(list.map((p: { version: string }) => p.version)).toEqual(["1.0.0", "2.0.0-beta.1"]);
  const one = (await api.get(`/projects/${W.priv.id}/packages/${list[0].id}`)).body;
  expect(one.versions).toEqual([{ id: list[1].id, version: "2.0.0-beta.1", created_at: list[1].created_at, tags: [expect.objectContaining({ name: "next" })] }]);
});

test("npm's answers for refusals and unknown packages", async () => {
  const put = (token: string | null, name: string, doc: unknown) =>
    fetch(`${registryOf(W.priv.id)}${name}`, { method: "PUT", headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(doc) });
  const doc = (version: string, data = Buffer.from("tarball").toString("base64")) => ({
    name: "@reg/raw",
    versions: { [version]: { name: "@reg/raw", version, dist: {} } },
    "dist-tags": { latest: version },
    _attachments: { [`@reg/raw-${version}.tgz`]: { data, length: 7 } },
  });
  expect((await put(null, "@reg%2fraw", doc("1.0.0"))).status).toBe(401);
  expect((await put(W.users.reporter.token, "@reg%2fraw", doc("1.0.0"))).status).toBe(403);
  expect(await (await put(W.users.dev.token, "@reg%2fraw", { ...doc("1.0.0"), _attachments: {} })).json()).toEqual({ message: "Attachment data is empty.", error: "Attachment data is empty." });
  expect(await (await put(W.users.dev.token, "@reg%2fraw", { ...doc("1.0.0"), versions: undefined })).json()).toEqual({ message: '400 Bad request - "versions" not given', error: '"versions" not given' });
  expect(await (await put(W.users.dev.token, "@reg%2fraw", doc("not-semver"))).json()).toEqual({ message: "Validation failed: Version should follow SemVer: https://semver.org", error: "Validation failed: Version should follow SemVer: https://semver.org" });
  expect((await put(W.users.dev.token, "@reg%2fraw", doc("1.0.0"))).status).toBe(200);
  expect(await (await put(W.users.dev.token, "@reg%2fraw", doc("1.0.0"))).json()).toEqual({ message: "Package already exists.", error: "Package already exists." });

  const get = (token: string | null, name: string) => fetch(`${registryOf(W.priv.id)}${name}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  // A private project asks anonymous npm for credentials (401), members get the document.
  expect((await get(null, "@reg%2fraw")).status).toBe(401);
  expect((await get(W.users.outsider.token, "@reg%2fraw")).status).toBe(404);
  expect((await get(W.users.guest.token, "@reg%2fraw")).status).toBe(200);
  expect(await (await get(W.users.guest.token, "@reg%2fmissing")).json()).toEqual({ message: "404 Packages Not Found" });
});
