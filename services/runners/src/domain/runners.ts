import { AccessLevel, forbidden, notFound, requireCaller, validationFailed, type Ctx } from "@collab/core";
import type { Db } from "@collab/db";
import { and, count, eq } from "drizzle-orm";
import type { RunnerChanges } from "@collab/runners-contract";
import { registrationTokens, runnerProjects, runners, type RunnerRow } from "../db/schema";
import { levelOf } from "./remote";
import { digest } from "./tokens";

export async function loadRunner(db: Db, id: number): Promise<RunnerRow> {
  const [row] = await db.select().from(runners).where(eq(runners.id, id));
  if (!row) throw notFound("Runner");
  return row;
}

export async function runnerProjectIds(db: Db, runnerId: number): Promise<number[]> {
  const rows = await db.select({ projectId: runnerProjects.projectId }).from(runnerProjects).where(eq(runnerProjects.runnerId, runnerId)).orderBy(runnerProjects.createdAt, runnerProjects.projectId);
  return rows.map((r) => r.projectId);
}

export async function runnerByToken(db: Db, token: string): Promise<RunnerRow | undefined> {
  const [row] = await db.select().from(runners).where(eq(runners.tokenDigest, digest(token)));
  return row;
}

/**
 * The caller's highest standing on a runner: ADMIN for administrators, else the best level on
 * its group (group runners) or on any of its projects (project runners); instance runners give
 * every signed-in user Guest-like read access only.
 */
export async function runnerLevel(db: Db, ctx: Ctx<unknown>, runner: RunnerRow): Promise<number> {
  const caller = requireCaller(ctx);
  if (caller.admin) return AccessLevel.ADMIN;
  if (runner.runnerType === "group_type" && runner.groupId !== null) return levelOf(ctx, caller.id, { group_id: runner.groupId });
  if (runner.runnerType === "project_type") {
    const levels = await Promise.all((await runnerProjectIds(db, runner.id)).map((id) => levelOf(ctx, caller.id, { project_id: id })));
    return Math.max(0, ...levels);
  }
  return 0;
}

/** Who manages a runner: administrators (instance), group Owners, project Maintainers. */
export const manageLevel = (runner: RunnerRow) =>
  runner.runnerType === "instance_type" ? AccessLevel.ADMIN : runner.runnerType === "group_type" ? AccessLevel.OWNER : AccessLevel.MAINTAINER;

const noAccess = () => forbidden("No access granted");

/** Reading a runner: any signed-in user for instance runners, else Developer+ where it belongs. */
export async function assertCanRead(db: Db, ctx: Ctx<unknown>, runner: RunnerRow) {
  requireCaller(ctx);
  if (runner.runnerType === "instance_type") return;
  if ((await runnerLevel(db, ctx, runner)) < AccessLevel.DEVELOPER) throw noAccess();
}

export async function assertCanManage(db: Db, ctx: Ctx<unknown>, runner: RunnerRow) {
  if ((await runnerLevel(db, ctx, runner)) < manageLevel(runner)) throw noAccess();
}

/** Model validations of a runner's writable fields, as GitLab's render_validation_error! answers them. */
export function runnerErrors(next: { maintenanceNote?: string | null; maximumTimeout?: number | null; runUntagged: boolean; tagList: string[]; description?: string }) {
  const errors: Record<string, string[]> = {};
  if (next.maintenanceNote && next.maintenanceNote.length > 1024) errors.maintenance_note = ["is too long (maximum is 1024 characters)"];
  if (next.maximumTimeout !== null && next.maximumTimeout !== undefined && next.maximumTimeout < 600) errors.maximum_timeout = ["needs to be at least 10 minutes"];
  if (!next.runUntagged && next.tagList.length === 0) errors.tags_list = ["can not be empty when runner is not allowed to pick untagged jobs"];
  if (next.tagList.some((t) => t.length > 255)) errors.tag_list = ["is too long (maximum is 255 characters)"];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

const uniqueTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))];

/** Column values of writable runner params (shared by update, register and create). */
export function runnerColumns(p: RunnerChanges & { active?: boolean }): Partial<typeof runners.$inferInsert> {
  const out: Partial<typeof runners.$inferInsert> = {};
  if (p.description !== undefined) out.description = p.description;
  if (p.active !== undefined) out.active = p.active;
  if (p.paused !== undefined) out.active = !p.paused;
  if (p.tag_list !== undefined) out.tagList = uniqueTags(p.tag_list);
  if (p.run_untagged !== undefined) out.runUntagged = p.run_untagged;
  if (p.locked !== undefined) out.locked = p.locked;
  if (p.access_level !== undefined) out.accessLevel = p.access_level;
  if (p.maximum_timeout !== undefined) out.maximumTimeout = p.maximum_timeout;
  if (p.maintenance_note !== undefined) out.maintenanceNote = p.maintenance_note;
  return out;
}

export async function updateRunner(db: Db, runner: RunnerRow, p: RunnerChanges): Promise<RunnerRow> {
  const cols = runnerColumns(p);
  runnerErrors({
    maintenanceNote: cols.maintenanceNote ?? runner.maintenanceNote,
    maximumTimeout: cols.maximumTimeout ?? runner.maximumTimeout,
    runUntagged: cols.runUntagged ?? runner.runUntagged,
    tagList: cols.tagList ?? runner.tagList,
  });
  const [row] = await db.update(runners).set({ ...cols, updatedAt: new Date() }).where(eq(runners.id, runner.id)).returning();
  return row;
}

export interface NewRunner {
  runnerType: "instance_type" | "group_type" | "project_type";
  groupId?: number | null;
  projectId?: number | null;
  token: string;
  registrationType: "registration_token" | "authenticated_user";
  creatorId?: number | null;
  columns: Partial<typeof runners.$inferInsert>;
}

export async function createRunner(db: Db, n: NewRunner): Promise<RunnerRow> {
  const c = n.columns;
  runnerErrors({ maintenanceNote: c.maintenanceNote, maximumTimeout: c.maximumTimeout, runUntagged: c.runUntagged ?? true, tagList: c.tagList ?? [] });
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(runners)
      .values({ ...c, runnerType: n.runnerType, groupId: n.groupId ?? null, tokenDigest: digest(n.token), registrationType: n.registrationType, creatorId: n.creatorId ?? null })
      .returning();
    if (n.projectId) await tx.insert(runnerProjects).values({ runnerId: row.id, projectId: n.projectId });
    return row;
  });
}

export async function setRunnerToken(db: Db, runner: RunnerRow, token: string): Promise<RunnerRow> {
  const [row] = await db.update(runners).set({ tokenDigest: digest(token), updatedAt: new Date() }).where(eq(runners.id, runner.id)).returning();
  return row;
}

export async function deleteRunner(db: Db, runnerId: number) {
  await db.delete(runners).where(eq(runners.id, runnerId));
}

export async function runnerProjectCount(db: Db, runnerId: number): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(runnerProjects).where(eq(runnerProjects.runnerId, runnerId));
  return n;
}

export async function linkProject(db: Db, runnerId: number, projectId: number) {
  const inserted = await db.insert(runnerProjects).values({ runnerId, projectId }).onConflictDoNothing().returning();
  if (!inserted.length) throw validationFailed({ "runner_projects.project_id": ["has already been taken"] });
}

export async function unlinkProject(db: Db, runnerId: number, projectId: number) {
  await db.delete(runnerProjects).where(and(eq(runnerProjects.runnerId, runnerId), eq(runnerProjects.projectId, projectId)));
}

export type RegistrationScope = { scope: "instance"; scopeId: 0 } | { scope: "group"; scopeId: number } | { scope: "project"; scopeId: number };

export async function resetRegistrationToken(db: Db, s: RegistrationScope, token: string) {
  await db
    .insert(registrationTokens)
    .values({ scope: s.scope, scopeId: s.scopeId, tokenDigest: digest(token) })
    .onConflictDoUpdate({ target: [registrationTokens.scope, registrationTokens.scopeId], set: { tokenDigest: digest(token), createdAt: new Date() } });
}

export async function registrationScopeOf(db: Db, token: string): Promise<RegistrationScope | undefined> {
  const [row] = await db.select().from(registrationTokens).where(eq(registrationTokens.tokenDigest, digest(token)));
  return row ? ({ scope: row.scope, scopeId: row.scopeId } as RegistrationScope) : undefined;
}
