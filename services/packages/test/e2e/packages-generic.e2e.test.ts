import { apiClient, type TestApp } from "@collab/testing";
import { randomBytes } from "node:crypto";
import { startApp } from "@collab/standalone/test/app";
import { countRows, download, generic, GENERIC_LIMIT, packagesWorld, packageTestEnv, putGeneric, sha256, type PackagesWorld } from "./packages-world";

/**
 * The generic package registry: streamed uploads of a few MiB whose bytes, size and digests come
 * back exactly, select=package_file, hidden packages, duplicates, name rules, size limits (nothing
 * written), and who may upload and download.
 */
let app: TestApp;
let W: PackagesWorld;

beforeAll(async () => {
  packageTestEnv();
  app = await startApp("packages-generic");
});
beforeEach(async () => {
  await app.reset();
  W = await packagesWorld(app);
});
afterAll(() => app.stop());

const auth = (token: string) => ({ "PRIVATE-TOKEN": token });

test("a several-MiB file uploads and downloads byte for byte; the file record's digests match", async () => {
  const bytes = randomBytes(5 * 1024 * 1024 + 12345);
  const path = generic(W.priv.id, "tool", "1.2.3", "tool-linux.bin");
  const put = await putGeneric(app, `${path}?select=package_file`, bytes, auth(W.users.dev.token));
  // GitLab presents the record with the PUT's own status (200); plain uploads answer created! (201).
  expect(put.status).toBe(200);
  expect(put.body).toEqual({
    id: expect.any(Number),
    package_id: expect.any(Number),
    created_at: expect.stringMatching(/Z$/),
    file_name: "tool-linux.bin",
    size: bytes.length,
    file_md5: expect.stringMatching(/^[0-9a-f]{32}$/),
    file_sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
    file_sha256: sha256(bytes),
  });

  const got = await download(app, path, auth(W.users.reporter.token));
  expect(got.status).toBe(200);
  expect(got.headers.get("content-length")).toBe(String(bytes.length));
  expect(got.headers.get("x-checksum-sha256")).toBe(sha256(bytes));
  expect(got.headers.get("content-disposition")).toContain('filename="tool-linux.bin"');
  expect(sha256(got.bytes)).toBe(sha256(bytes));
  expect(got.bytes.equals(bytes)).toBe(true);

  const files = await W.users.reporter.api.get(`/projects/${W.priv.id}/packages/${put.body.package_id}/package_files`);
  expect(files.status).toBe(200);
  expect(files.body).toEqual([put.body]);
  const pkg = (await W.users.reporter.api.get(`/projects/${W.priv.id}/packages/${put.body.package_id}`)).body;
  expect(pkg).toMatchObject({ name: "tool", version: "1.2.3", package_type: "generic", status: "default", last_downloaded_at: expect.stringMatching(/Z$/) });
});

test("without select the answer is 201 Created; an empty file is a file too", async () => {
  const put = await putGeneric(app, generic(W.priv.id, "tool", "1.0.0", "empty.txt"), Buffer.alloc(0), auth(W.users.dev.token));
  expect(put).toMatchObject({ status: 201, body: { message: "201 Created" } });
  const got = await download(app, generic(W.priv.id, "tool", "1.0.0", "empty.txt"), auth(W.users.dev.token));
  expect(got.status).toBe(200);
  expect(got.bytes.length).toBe(0);
});

test("the same file name again adds a file; downloads serve the newest", async () => {
  const path = generic(W.priv.id, "tool", "2.0.0", "a.txt");
  await putGeneric(app, path, Buffer.from("first"), auth(W.users.dev.token));
  const second = await putGeneric(app, `${path}?select=package_file`, Buffer.from("second"), auth(W.users.dev.token));
  expect((await download(app, path, auth(W.users.dev.token))).bytes.toString()).toBe("second");
  const files = (await W.users.dev.api.get(`/projects/${W.priv.id}/packages/${second.body.package_id}/package_files`)).body;
  expect(files.map((f: { file_name: string; size: number }) => [f.file_name, f.size])).toEqual([
    ["a.txt", 5],
    ["a.txt", 6],
  ]);
  const list = (await W.users.dev.api.get(`/projects/${W.priv.id}/packages`)).body;
  expect(list).toHaveLength(1);
});

test("status=hidden: not listed, not shown, but downloadable", async () => {
  const path = generic(W.priv.id, "corpus", "1.0.0", "seed.bin");
  const put = await putGeneric(app, `${path}?status=hidden&select=package_file`, Buffer.from("seed"), auth(W.users.dev.token));
  expect(put.status).toBe(200);
  expect((await W.users.dev.api.get(`/projects/${W.priv.id}/packages`)).body).toEqual([]);
  expect((await W.users.dev.api.get(`/projects/${W.priv.id}/packages`, { query: { status: "hidden" } })).body).toMatchObject([{ name: "corpus", status: "hidden" }]);
  expect((await W.users.dev.api.get(`/projects/${W.priv.id}/packages/${put.body.package_id}`)).status).toBe(404);
  expect((await download(app, path, auth(W.users.dev.token))).bytes.toString()).toBe("seed");
  expect((await putGeneric(app, `${path}?status=secret`, Buffer.from("x"), auth(W.users.dev.token))).body).toEqual({ error: "status does not have a valid value" });
});

test("names, versions and file names follow GitLab's rules", async () => {
  const bad = async (path: string) => (await putGeneric(app, path, Buffer.from("x"), auth(W.users.dev.token))).body;
  expect(await bad(generic(W.priv.id, "bad%20name", "1.0.0", "f.txt"))).toEqual({ error: "package_name is invalid" });
  expect(await bad(generic(W.priv.id, "tool", "1..0", "f.txt"))).toEqual({ error: "package_version is invalid" });
  expect(await bad(generic(W.priv.id, "tool", "1.0.0", "f%20g.txt"))).toEqual({ error: "file_name is invalid" });
  expect(await bad(generic(W.priv.id, "tool", "1.0.0", "..%2Fescape"))).toEqual({ error: "file_name is invalid" });
  expect(await countRows(app, "packages")).toBe(0);
});

test("over the size limit: 413 and nothing written, declared or not", async () => {
  const big = randomBytes(GENERIC_LIMIT + 1);
  const path = generic(W.priv.id, "big", "1.0.0", "big.bin");
  const declared = await putGeneric(app, path, big, auth(W.users.dev.token));
  expect(declared).toMatchObject({ status: 413, body: { message: "413 Request Entity Too Large" } });

  // Chunked (no Content-Length): the service counts the bytes and stops at the limit.
  const res = await fetch(`${app.url}/api/v4${path}`, {
    method: "PUT",
    headers: auth(W.users.dev.token),
    body: (async function* () {
      for (let i = 0; i < big.length; i += 1024 * 1024) yield big.subarray(i, i + 1024 * 1024);
    })() as unknown as BodyInit,
    duplex: "half",
  } as RequestInit);
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({ message: "413 Request Entity Too Large" });

  expect((await W.users.dev.api.get(`/projects/${W.priv.id}/packages`, { query: { status: "default" } })).body).toEqual([]);
  expect(await countRows(app, "packages")).toBe(0);
  expect(await countRows(app, "package_files")).toBe(0);
  expect(await countRows(app, "file_chunks")).toBe(0);
  expect((await download(app, path, auth(W.users.dev.token))).status).toBe(404);
});

test("who may upload and download", async () => {
  const path = generic(W.priv.id, "tool", "1.0.0", "f.txt");
  const put = (token: string | null) => putGeneric(app, path, Buffer.from("x"), token ? auth(token) : {});
  expect((await put(null)).status).toBe(401);
  expect((await put(W.users.outsider.token)).body).toEqual({ message: "404 Project Not Found" });
  expect((await put(W.users.guest.token)).status).toBe(403);
  expect((await put(W.users.reporter.token)).status).toBe(403);
  expect((await put(W.users.dev.token)).status).toBe(201);

  const get = (token: string | null) => download(app, path, token ? auth(token) : {});
  expect((await get(null)).status).toBe(404);
  expect((await get(W.users.outsider.token)).status).toBe(404);
  expect((await get(W.users.guest.token)).status).toBe(200);

  // A public project's files are open to anyone, its uploads still need Developer.
  const pubPath = generic(W.pub.id, "tool", "1.0.0", "f.txt");
  expect((await putGeneric(app, pubPath, Buffer.from("pub"), auth(W.users.outsider.token))).status).toBe(403);
  expect((await putGeneric(app, pubPath, Buffer.from("pub"), auth(W.users.maint.token))).status).toBe(201);
  expect((await download(app, pubPath)).bytes.toString()).toBe("pub");
  expect((await download(app, generic(W.pub.id, "tool", "1.0.0", "missing.txt"))).status).toBe(404);

  // A read_api token reads, an api token writes.
  const readOnly = await apiClient(app.url, app.rootToken).post(`/users/${W.users.dev.id}/personal_access_tokens`, { json: { name: "ro", scopes: ["read_api"] } });
  expect((await download(app, path, auth(readOnly.body.token))).status).toBe(200);
  expect((await putGeneric(app, path, Buffer.from("y"), auth(readOnly.body.token))).status).toBe(403);
});
