import { addMember, apiClient, assertStatus, createGroup, createProject, createUser, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { createHash } from "node:crypto";

/** Limits the package tests run under (the distributed topology sets the same, scripts/topology.js). */
export const GENERIC_LIMIT = 8 * 1024 * 1024;
export function packageTestEnv() {
  process.env.PACKAGES_GENERIC_MAX_FILE_SIZE ??= String(GENERIC_LIMIT);
  process.env.PACKAGES_DESTRUCTION_TICK_MS ??= "0";
}

export const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

export type Role = "guest" | "reporter" | "dev" | "maint" | "owner";
export const LEVELS: Record<Role, number> = { guest: 10, reporter: 20, dev: 30, maint: 40, owner: 50 };

export interface PackagesWorld {
  root: ApiClient;
  group: { id: number; full_path: string };
  sub: { id: number; full_path: string };
  /** Private project of the group, every role a member of the group. */
  priv: { id: number; path_with_namespace: string };
  /** Public project of the group. */
  pub: { id: number; path_with_namespace: string };
  /** Private project in the subgroup. */
  subPriv: { id: number; path_with_namespace: string };
  users: Record<Role | "outsider", TestUser>;
}

/** A group "reg" (private, members guest…owner) with a private and a public project, and a subgroup with a private project. */
export async function packagesWorld(app: TestApp): Promise<PackagesWorld> {
  const root = apiClient(app.url, app.rootToken);
  const group = await createGroup(root, "reg", "reg", { visibility: "public" });
  const sub = await createGroup(root, "sub", "sub", { parent_id: group.id, visibility: "public" });
  const priv = await createProject(root, { name: "priv", namespace_id: group.id, visibility: "private" });
  const pub = await createProject(root, { name: "pub", namespace_id: group.id, visibility: "public" });
  const subPriv = await createProject(root, { name: "deep", namespace_id: sub.id, visibility: "private" });
  const users = {} as PackagesWorld["users"];
  for (const role of Object.keys(LEVELS) as Role[]) {
    users[role] = await createUser(app, role);
    await addMember(app, "groups", group.id, users[role].id, LEVELS[role]);
  }
  users.outsider = await createUser(app, "outsider");
  return { root, group, sub, priv, pub, subPriv, users };
}

/** PUT a generic package file with raw bytes (what curl --upload-file sends). */
export async function putGeneric(app: TestApp, path: string, body: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}/api/v4${path}`, { method: "PUT", headers: { "Content-Type": "application/octet-stream", ...headers }, body, duplex: "half" } as RequestInit);
  const text = await res.text();
  let json: any = text;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json, headers: res.headers };
}

export async function download(app: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}/api/v4${path}`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes, headers: res.headers, json: () => JSON.parse(bytes.toString("utf8")) };
}

export const generic = (projectId: number, name: string, version: string, file: string) => `/projects/${projectId}/packages/generic/${name}/${version}/${file}`;

/**
 * A running CI job of the project and its job token: a project runner, a pipeline schedule played
 * once by `as` (whose pipeline it is), and the runner picking the job (POST /jobs/request).
 */
export async function runningJob(app: TestApp, as: ApiClient, projectId: number, runnerOwner: ApiClient = as): Promise<{ id: number; token: string; pipeline_id: number }> {
  const runner = assertStatus(await runnerOwner.post("/user/runners", { json: { runner_type: "project_type", project_id: projectId } }), 201, "runner").body;
  const schedule = assertStatus(await as.post(`/projects/${projectId}/pipeline_schedules`, { json: { description: "ci", ref: "main", cron: "0 1 * * *" } }), 201, "schedule").body;
  assertStatus(await as.post(`/projects/${projectId}/pipeline_schedules/${schedule.id}/play`), 201, "play");
  const job = assertStatus(await apiClient(app.url).post("/jobs/request", { json: { token: runner.token } }), 201, "job").body;
  return { id: job.id, token: job.token, pipeline_id: job.pipeline_id };
}

/** Rows of a packages table (tests that check nothing was written). */
export async function countRows(app: TestApp, table: string): Promise<number> {
  const res = (await app.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM packages.${table}`))) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0].n);
}
