import { call } from "@collab/core";
import { ImportExport } from "@collab/import-export-contract";
import { Gitlab } from "@gitbeaker/rest";
import { readTarGz } from "@collab/import-export/archive/tar";
import { addMember, apiClient, createGroup, createUser, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

/** Group export and import (POST /groups/:id/export, GET …/export/download, POST /groups/import). */

// The worker's timer stays off in the embedded app: tests advance jobs with import-export.worker.tick.
process.env.IMPORT_EXPORT_TICK_MS ??= "0";

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("group-import-export");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const ACCEPTED = { status: 202, body: { message: "202 Accepted" } };
const tick = () => call(app.broker, ImportExport.worker.tick, {});

/**
 * Ticks the worker until `done` holds. In the distributed pass each replica's own timer may hold
 * the job meanwhile (the tick then finds nothing to claim), hence the short waits.
 */
async function tickUntil(done: () => Promise<boolean>) {
  for (let i = 0; i < 50; i++) {
    if (await done()) return;
    await tick();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the import/export worker never got there");
}

async function download(token: string | null, group: string | number) {
  const res = await fetch(`${app.url}/api/v4/groups/${encodeURIComponent(String(group))}/export/download`, { headers: token ? { "PRIVATE-TOKEN": token } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: unknown = null;
  if (res.headers.get("content-type")?.includes("json")) body = JSON.parse(bytes.toString("utf8"));
  return { status: res.status, headers: res.headers, bytes, body };
}

/** POST /groups/import as multipart: text fields, and the file (unless null). */
async function upload(token: string | null, fields: Record<string, string>, file: { bytes: Buffer; filename: string } | null) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append("file", new Blob([new Uint8Array(file.bytes)], { type: "application/gzip" }), file.filename);
  const res = await fetch(`${app.url}/api/v4/groups/import`, { method: "POST", headers: token ? { "PRIVATE-TOKEN": token } : {}, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The archive's files by name (text). */
const filesOf = (archive: Buffer) => new Map(readTarGz(archive, { maxBytes: 64 << 20 }).filter((e) => e.type === "file").map((e) => [e.name, e.data.toString("utf8")]));
const lines = (text: string | undefined) => (text ?? "").split("\n").filter(Boolean).map((l) => JSON.parse(l));

async function importStates(): Promise<{ state: string; error_message: string | null; statistics: Record<string, number> | null }[]> {
  const res = await app.database.db.execute(sql`SELECT state, error_message, statistics FROM import_export.group_imports ORDER BY id`);
  return (res as unknown as { rows: { state: string; error_message: string | null; statistics: Record<string, number> | null }[] }).rows;
}

/**
 * alice owns `acme` (public): labels bug and feature, milestones v1 (open, dated) and v2 (closed),
 * bob a Developer; `acme/platform` (public) has its own label and milestone; `acme/platform/infra`
 * (internal) has nothing.
 */
async function acme() {
  const alice = await createUser(app, "alice");
  const bob = await createUser(app, "bob");
  const top = await createGroup(alice.api, "Acme", "acme", { visibility: "public", description: "Acme tools" });
  const platform = await createGroup(alice.api, "Platform", "platform", { parent_id: top.id, visibility: "public" });
  const infra = await createGroup(alice.api, "Infra", "infra", { parent_id: platform.id, visibility: "internal" });
  await addMember(app, "groups", top.id, bob.id, 30);
  const post = async (path: string, json: Record<string, unknown>) => expect((await alice.api.post(path, { json })).status).toBe(201);
  await post(`/groups/${top.id}/labels`, { name: "bug", color: "#ff0000", description: "Something is broken" });
  await post(`/groups/${top.id}/labels`, { name: "feature", color: "#00ff00" });
  await post(`/groups/${platform.id}/labels`, { name: "platform::infra", color: "#0000ff" });
  await post(`/groups/${top.id}/milestones`, { title: "v1", description: "First", start_date: "2030-01-01", due_date: "2030-02-01" });
  await post(`/groups/${top.id}/milestones`, { title: "v2" });
  await post(`/groups/${platform.id}/milestones`, { title: "platform-m1" });
  const v2 = (await alice.api.get(`/groups/${top.id}/milestones`, { query: { title: "v2" } })).body[0];
  expect((await alice.api.put(`/groups/${top.id}/milestones/${v2.id}`, { json: { state_event: "close" } })).status).toBe(200);
  return { alice, bob, top, platform, infra };
}

/** Exports a group as `user` and answers the finished download. */
async function exported(user: TestUser | { token: string }, group: number | string) {
  expect(await apiClient(app.url, user.token).post(`/groups/${encodeURIComponent(String(group))}/export`)).toMatchObject(ACCEPTED);
  let res = await download(user.token, group);
  await tickUntil(async () => (res = await download(user.token, group)).status === 200);
  return res;
}

const titles = (rows: { title?: string; name?: string }[]) => rows.map((r) => r.title ?? r.name).sort();

describe("group export", () => {
  it("queues with 202, answers 404 until the worker has built the archive, then the tar.gz of the whole tree", async () => {
    const { alice, top, platform, infra } = await acme();
    expect(await alice.api.post(`/groups/${top.id}/export`)).toMatchObject(ACCEPTED);
    if (!app.distributed) {
      // Before the worker ran (in the distributed pass the replicas' own timers may be quicker).
      expect(await download(alice.token, top.id)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
      expect(await tick()).toEqual({ exports: 1, imports: 0 });
    }
    let res = await download(alice.token, "acme");
    await tickUntil(async () => (res = await download(alice.token, "acme")).status === 200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{3}_acme_export\.tar\.gz"; filename\*=UTF-8''/);
    expect(Number(res.headers.get("content-length"))).toBe(res.bytes.length);
    expect(res.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    const files = filesOf(res.bytes);
    expect(files.get("VERSION")).toBe("0.2.4");
    expect(lines(files.get("tree/groups/_all.ndjson"))).toEqual([top.id, platform.id, infra.id]);
    expect(JSON.parse(files.get(`tree/groups/${top.id}.json`)!)).toMatchObject({ name: "Acme", path: "acme", description: "Acme tools", visibility_level: 20, parent_id: null });
    expect(JSON.parse(files.get(`tree/groups/${infra.id}.json`)!)).toMatchObject({ name: "Infra", path: "infra", visibility_level: 10, parent_id: platform.id });
    expect(lines(files.get(`tree/groups/${top.id}/labels.ndjson`)).map((l) => [l.title, l.color, l.description])).toEqual([
      ["bug", "#ff0000", "Something is broken"],
      ["feature", "#00ff00", null],
    ]);
    expect(lines(files.get(`tree/groups/${top.id}/milestones.ndjson`)).map((m) => [m.title, m.state, m.start_date, m.due_date])).toEqual([
      ["v1", "active", "2030-01-01", "2030-02-01"],
      ["v2", "closed", null, null],
    ]);
    expect(titles(lines(files.get(`tree/groups/${platform.id}/labels.ndjson`)))).toEqual(["platform::infra"]);
    expect(titles(lines(files.get(`tree/groups/${platform.id}/milestones.ndjson`)))).toEqual(["platform-m1"]);
    expect(lines(files.get(`tree/groups/${top.id}/members.ndjson`)).map((m) => [m.user.username, m.access_level])).toEqual([
      ["alice", 50],
      ["bob", 30],
    ]);

    // A new request keeps the finished archive downloadable until the worker starts the new one.
    expect(await alice.api.post(`/groups/${top.id}/export`)).toMatchObject(ACCEPTED);
    if (!app.distributed) expect((await download(alice.token, top.id)).status).toBe(200);
    await tick();
    await tickUntil(async () => (await download(alice.token, top.id)).status === 200);
  });

  it("needs an Owner (administrators too): 403 for other members, 404 for non-members of a private group, 401 anonymous", async () => {
    const alice = await createUser(app, "alice");
    const bob = await createUser(app, "bob");
    const carol = await createUser(app, "carol");
    const group = await createGroup(alice.api, "Secret", "secret");
    await addMember(app, "groups", group.id, bob.id, 40);

    for (const path of [`/groups/${group.id}/export`]) {
      expect(await bob.api.post(path)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      expect(await carol.api.post(path)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
      expect(await root.as(null).post(path)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    }
    expect(await download(bob.token, group.id)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await download(carol.token, group.id)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await download(null, group.id)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await alice.api.post("/groups/9999/export")).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });

    // Never exported: 404. Exports are per user: root's export is not alice's.
    expect(await download(alice.token, group.id)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await exported({ token: app.rootToken }, group.id)).status).toBe(200);
    expect(await download(alice.token, group.id)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });
});

describe("group import", () => {
  it("creates the group at once (private, importer Owner), then the worker restores subgroups, labels and milestones", async () => {
    const { alice, bob } = await acme();
    const archive = await exported(alice, "acme");
    const filename = /filename="([^"]+)"/.exec(archive.headers.get("content-disposition")!)![1];

    expect(await upload(alice.token, { name: "Acme copy", path: "acme-copy" }, { bytes: archive.bytes, filename })).toMatchObject(ACCEPTED);
    // The group exists before the worker ran, private (a top-level import always is), alice its Owner.
    const created = await alice.api.get("/groups/acme-copy");
    expect(created.body).toMatchObject({ name: "Acme copy", path: "acme-copy", full_path: "acme-copy", visibility: "private", parent_id: null });

    await tickUntil(async () => (await importStates())[0]?.state === "finished");
    const group = (await alice.api.get("/groups/acme-copy")).body;
    expect(group).toMatchObject({ name: "Acme copy", description: "Acme tools", visibility: "private" });
    const descendants = (await alice.api.get("/groups/acme-copy/descendant_groups")).body as { full_path: string; visibility: string; name: string }[];
    expect(descendants.map((g) => [g.full_path, g.name, g.visibility]).sort()).toEqual([
      ["acme-copy/platform", "Platform", "private"],
      ["acme-copy/platform/infra", "Infra", "private"],
    ]);
    const labels = (await alice.api.get("/groups/acme-copy/labels")).body;
    expect(labels.map((l: { name: string; color: string; description: string | null }) => [l.name, l.color, l.description])).toEqual([
      ["bug", "#ff0000", "Something is broken"],
      ["feature", "#00ff00", null],
    ]);
    const milestones = (await alice.api.get("/groups/acme-copy/milestones")).body;
    expect(milestones.map((m: { title: string; state: string; start_date: string | null; due_date: string | null }) => [m.title, m.state, m.start_date, m.due_date]).sort()).toEqual([
      ["v1", "active", "2030-01-01", "2030-02-01"],
      ["v2", "closed", null, null],
    ]);
    expect(titles((await alice.api.get("/groups/acme-copy%2Fplatform/labels", { query: { include_ancestor_groups: false } })).body)).toEqual(["platform::infra"]);
    expect(titles((await alice.api.get("/groups/acme-copy%2Fplatform/milestones")).body)).toEqual(["platform-m1"]);
    // Not an administrator: the archive's members are skipped, the importer alone is Owner.
    const members = (await alice.api.get("/groups/acme-copy/members")).body;
    expect(members.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([["alice", 50]]);
    expect((await bob.api.get("/groups/acme-copy")).status).toBe(404);
    expect((await importStates())[0]).toMatchObject({ state: "finished", error_message: null, statistics: { groups: 2, labels: 3, milestones: 3, members: 0, skipped: 4 } });
  });

  it("administrators import members matched by username; imported into a parent, the group takes the closest level it allows", async () => {
    const { alice } = await acme();
    const archive = await exported(alice, "acme");
    await createUser(app, "dave"); // not in the archive
    const parent = await createGroup(root, "Parent", "parent", { visibility: "public" });
    const secret = await createGroup(root, "Vault", "vault", { visibility: "private" });

    expect(await upload(app.rootToken, { name: "Imported", path: "imported", parent_id: String(parent.id) }, { bytes: archive.bytes, filename: "acme.tar.gz" })).toMatchObject(ACCEPTED);
    expect(await upload(app.rootToken, { name: "Hidden", path: "hidden", parent_id: String(secret.id) }, { bytes: archive.bytes, filename: "acme.tar.gz" })).toMatchObject(ACCEPTED);
    await tickUntil(async () => (await importStates()).every((s) => s.state === "finished"));

    // Under a public parent: public as the parent; subgroups keep their own level up to it.
    expect((await root.get("/groups/parent%2Fimported")).body).toMatchObject({ visibility: "public", parent_id: parent.id, full_path: "parent/imported" });
    const under = (await root.get("/groups/parent%2Fimported/descendant_groups")).body as { full_path: string; visibility: string }[];
    expect(under.map((g) => [g.full_path, g.visibility]).sort()).toEqual([
      ["parent/imported/platform", "public"],
      ["parent/imported/platform/infra", "internal"],
    ]);
    // Under a private parent everything is private.
    const hidden = (await root.get("/groups/vault%2Fhidden/descendant_groups")).body as { visibility: string }[];
    expect((await root.get("/groups/vault%2Fhidden")).body.visibility).toBe("private");
    expect(hidden.map((g) => g.visibility)).toEqual(["private", "private"]);

    // Members mapped by username; root (the importer) stays a direct Owner.
    const members = (await root.get("/groups/parent%2Fimported/members")).body;
    expect(members.map((m: { username: string; access_level: number }) => [m.username, m.access_level]).sort()).toEqual([
      ["alice", 50],
      ["bob", 30],
      ["root", 50],
    ]);
  });

  it("checks the parent and the right to create groups before anything is created", async () => {
    const { alice, bob } = await acme();
    const archive = await exported(alice, "acme");
    const carol = await createUser(app, "carol");
    const privateGroup = await createGroup(alice.api, "Closed", "closed");
    await addMember(app, "groups", privateGroup.id, bob.id, 30);
    const file = { bytes: archive.bytes, filename: "acme.tar.gz" };

    expect(await upload(carol.token, { name: "X", path: "x", parent_id: String(privateGroup.id) }, file)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    // A Developer may not create subgroups (subgroup_creation_level maintainer).
    expect(await upload(bob.token, { name: "X", path: "x", parent_id: String(privateGroup.id) }, file)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await upload(null, { name: "X", path: "x" }, file)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    // can_create_group: false forbids top-level imports.
    expect((await root.put(`/users/${carol.id}`, { json: { can_create_group: false } })).status).toBe(200);
    expect(await upload(carol.token, { name: "X", path: "x" }, file)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await root.get("/groups/x")).status).toBe(404);
    expect((await root.get("/groups/closed%2Fx")).status).toBe(404);
    expect(await importStates()).toEqual([]);
  });

  it("validates like GitLab: missing params, a file that is not .gz, the group's own validation", async () => {
    const alice = await createUser(app, "alice");
    const file = { bytes: Buffer.from("whatever"), filename: "export.tar.gz" };
    expect(await upload(alice.token, { name: "N", path: "p" }, null)).toMatchObject({ status: 400, body: { error: "file is missing" } });
    expect(await upload(alice.token, { name: "N" }, file)).toMatchObject({ status: 400, body: { error: "path is missing" } });
    expect(await upload(alice.token, {}, null)).toMatchObject({ status: 400, body: { error: "path is missing, name is missing, file is missing" } });
    expect(await upload(alice.token, { name: "N", path: "p", file: "not a file" }, null)).toMatchObject({ status: 400, body: { error: "file is invalid" } });
    expect(await upload(alice.token, { name: "N", path: "p", parent_id: "abc" }, file)).toMatchObject({ status: 400, body: { error: "parent_id is invalid" } });
    // A file is a multipart file part, never a JSON value shaped like one.
    const forged = { filename: "x.tar.gz", size: 4, data: Buffer.from("gzip").toString("base64") };
    expect(await alice.api.post("/groups/import", { json: { name: "N", path: "p", file: forged } })).toMatchObject({ status: 400, body: { error: "file is invalid" } });
    expect(await upload(alice.token, { name: "N", path: "p" }, { bytes: file.bytes, filename: "export.zip" })).toMatchObject({
      status: 422,
      body: { message: { error: "You need to upload a GitLab project export archive (ending in .gz)." } },
    });

    // The group's validation answers exactly as POST /groups does.
    await createGroup(alice.api, "Taken", "taken");
    const viaGroups = await alice.api.post("/groups", { json: { name: "Taken again", path: "taken" } });
    expect(viaGroups.status).toBe(400);
    expect(await upload(alice.token, { name: "Taken again", path: "taken" }, file)).toEqual({ status: 400, body: viaGroups.body });
    const badPath = await alice.api.post("/groups", { json: { name: "Bad", path: "bad path!" } });
    expect(await upload(alice.token, { name: "Bad", path: "bad path!" }, file)).toEqual({ status: 400, body: badPath.body });
    expect(await importStates()).toEqual([]);
  });

  it("max_import_size caps the upload (413, nothing created); 0 is unlimited; a bad archive fails the import and the group stays", async () => {
    const alice = await createUser(app, "alice");
    const big = { bytes: Buffer.alloc(1024 * 1024 + 1, 7), filename: "big.tar.gz" };
    expect((await root.put("/application/settings", { json: { max_import_size: 1 } })).body.max_import_size).toBe(1);
    expect(await upload(alice.token, { name: "Big", path: "big" }, big)).toMatchObject({ status: 413, body: { message: "413 Request Entity Too Large" } });
    expect((await root.get("/groups/big")).status).toBe(404);
    expect(await importStates()).toEqual([]);
    // Exactly the cap is allowed.
    expect(await upload(alice.token, { name: "Edge", path: "edge" }, { bytes: Buffer.alloc(1024 * 1024, 7), filename: "edge.tar.gz" })).toMatchObject(ACCEPTED);

    expect((await root.put("/application/settings", { json: { max_import_size: 0 } })).body.max_import_size).toBe(0);
    expect(await upload(alice.token, { name: "Big", path: "big" }, big)).toMatchObject(ACCEPTED);
    await tickUntil(async () => (await importStates()).every((s) => s.state === "failed"));
    expect((await importStates()).map((s) => s.error_message)).toEqual(["Invalid archive: not a gzip archive", "Invalid archive: not a gzip archive"]);
    // GitLab keeps the group of a failed import.
    expect((await alice.api.get("/groups/big")).body).toMatchObject({ path: "big", visibility: "private" });
    expect((await alice.api.get("/groups/big/descendant_groups")).body).toEqual([]);
  });
});

describe("@gitbeaker/rest GroupImportExports", () => {
  it("scheduleExport, download and import", async () => {
    const { alice } = await acme();
    const gl = new Gitlab({ host: app.url, token: alice.token });
    expect(await gl.GroupImportExports.scheduleExport("acme")).toEqual({ message: "202 Accepted" });
    await tickUntil(async () => (await download(alice.token, "acme")).status === 200);
    const blob = await gl.GroupImportExports.download("acme");
    expect(blob).toBeInstanceOf(Blob);
    const bytes = Buffer.from(await blob.arrayBuffer());
    expect(filesOf(bytes).get("VERSION")).toBe("0.2.4");

    expect(await gl.GroupImportExports.import({ content: blob, filename: "acme_export.tar.gz" }, "walk", { name: "Walk" })).toEqual({ message: "202 Accepted" });
    await tickUntil(async () => (await importStates())[0]?.state === "finished");
    expect(await gl.Groups.show("walk")).toMatchObject({ name: "Walk", path: "walk", visibility: "private" });
    expect(titles(await gl.GroupLabels.all("walk"))).toEqual(["bug", "feature"]);
    expect((await gl.Groups.allDescendantGroups("walk")).map((g) => g.full_path).sort()).toEqual(["walk/platform", "walk/platform/infra"]);
  });
});
