import { type Ctx, isUnanswered, isUniqueViolation, type Keyring, notFound, validationFailed } from "@collab/core";
import type { Db, EventBus } from "@collab/db";
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { pipelineSchedules, pipelineScheduleVariables, type PipelineRow, type ScheduleRow, type ScheduleVariableRow } from "../db/schema";
import { ianaZone, nextRunAt, parseCron } from "./cron";
import { createPipeline, jobStatusChanged } from "./pipelines";
import { resolveRef, type RefResolution } from "./remote";
import { openVariable } from "./variable-secrets";

export async function loadSchedule(db: Db, projectId: number, id: number): Promise<ScheduleRow> {
  const [row] = await db.select().from(pipelineSchedules).where(and(eq(pipelineSchedules.id, id), eq(pipelineSchedules.projectId, projectId)));
  if (!row) throw notFound("Pipeline Schedule");
  return row;
}

export interface ScheduleFields {
  description?: string;
  ref?: string;
  cron?: string;
  cron_timezone?: string;
  active?: boolean;
}

/**
 * Validates a schedule's fields as GitLab's model does (cron and cron_timezone syntax, an
 * unambiguous ref) and returns the columns to write, with the ref in its full form when it names
 * a branch or tag, and next_run_at recomputed.
 */
export async function scheduleColumns(ctx: Ctx<unknown>, projectId: number, current: ScheduleRow | null, p: ScheduleFields): Promise<Partial<typeof pipelineSchedules.$inferInsert>> {
  const cron = p.cron ?? current?.cron ?? "";
  const zone = p.cron_timezone ?? current?.cronTimezone ?? "UTC";
  const errors: Record<string, string[]> = {};
  if (p.description !== undefined && p.description.trim() === "") errors.description = ["can't be blank"];
  let ref = p.ref;
  if (ref !== undefined) {
    if (ref.trim() === "") errors.ref = ["can't be blank"];
    else {
      const r: RefResolution = await resolveRef(ctx, projectId, ref);
      if (r.status === "ambiguous") errors.ref = ["is ambiguous"];
      else if (r.status === "ok") ref = r.full_ref;
    }
  }
  const next = nextRunAt(cron, zone, new Date());
  if (!next) {
    if (!parseCron(cron)) errors.cron = [" is invalid syntax"];
    if (!ianaZone(zone)) errors.cron_timezone = [" is invalid syntax"];
    if (!errors.cron && !errors.cron_timezone) errors.cron = [" is invalid syntax"];
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
  return {
    ...(p.description !== undefined && { description: p.description }),
    ...(ref !== undefined && { ref }),
    ...(p.cron !== undefined && { cron: p.cron }),
    ...(p.cron_timezone !== undefined && { cronTimezone: p.cron_timezone }),
    ...(p.active !== undefined && { active: p.active }),
    nextRunAt: next!,
  };
}

/** The ref a pipeline runs for: short name and whether it is a tag, with its sha; null when it names nothing. */
export async function pipelineRef(ctx: { call: Ctx<unknown>["call"] }, projectId: number, ref: string) {
  const r = await resolveRef(ctx, projectId, ref);
  return r.status === "ok" ? { ref: r.name, tag: r.kind === "tag", sha: r.sha } : null;
}

/** Run now: a pipeline with source "schedule"; next_run_at is left alone. */
export async function playSchedule(events: Pick<EventBus, "transact">, ctx: Ctx<unknown>, s: ScheduleRow, userId: number): Promise<PipelineRow | null> {
  const target = await pipelineRef(ctx, s.projectId, s.ref);
  if (!target) return null;
  const created = await events.transact(
    (tx) => createPipeline(tx, { projectId: s.projectId, ...target, source: "schedule", userId, scheduleId: s.id }),
    ({ pipeline, job }) => [jobStatusChanged(job, pipeline, null)],
  );
  return created.pipeline;
}

/** The schedules' variables, values opened. */
export async function scheduleVariables(db: Db, keyring: Keyring, ids: number[]): Promise<Map<number, ScheduleVariableRow[]>> {
  const out = new Map<number, ScheduleVariableRow[]>();
  if (!ids.length) return out;
  const rows = await db.select().from(pipelineScheduleVariables).where(inArray(pipelineScheduleVariables.scheduleId, ids)).orderBy(pipelineScheduleVariables.id);
  for (const r of rows) out.set(r.scheduleId, [...(out.get(r.scheduleId) ?? []), openVariable(r, keyring)]);
  return out;
}

function variableErrors(key: string) {
  const errors: string[] = [];
  if (key.length > 255) errors.push("is too long (maximum is 255 characters)");
  if (!/^[a-zA-Z0-9_]+$/.test(key)) errors.push("can contain only letters, digits and '_'.");
  if (errors.length) throw validationFailed({ key: errors });
}

/** Stores the value sealed; answers the variable with its value in clear. */
export async function createVariable(db: Db, keyring: Keyring, scheduleId: number, v: { key: string; value: string; variable_type: string }): Promise<ScheduleVariableRow> {
  variableErrors(v.key);
  try {
    const [row] = await db.insert(pipelineScheduleVariables).values({ scheduleId, key: v.key, value: keyring.seal(v.value), variableType: v.variable_type }).returning();
    return { ...row, value: v.value };
  } catch (err) {
    if (isUniqueViolation(err)) throw validationFailed({ key: [`(${v.key}) has already been taken`] });
    throw err;
  }
}

/** The variable, value opened. */
export async function findVariable(db: Db, keyring: Keyring, scheduleId: number, key: string): Promise<ScheduleVariableRow> {
  const [row] = await db.select().from(pipelineScheduleVariables).where(and(eq(pipelineScheduleVariables.scheduleId, scheduleId), eq(pipelineScheduleVariables.key, key)));
  if (!row) throw notFound("Pipeline Schedule Variable");
  return openVariable(row, keyring);
}

// ---- the scheduler --------------------------------------------------------------------------------

/** Due schedules, without locks: candidates whose refs are resolved before the claiming transaction. */
export async function dueCandidates(db: Db, limit: number): Promise<ScheduleRow[]> {
  return db.select().from(pipelineSchedules).where(and(eq(pipelineSchedules.active, true), lte(pipelineSchedules.nextRunAt, sql`now()`))).orderBy(pipelineSchedules.nextRunAt).limit(limit);
}

/**
 * One scheduler pass. Candidates are read and their refs resolved over the bus first (no bus call
 * while rows are locked: a slow call would hold the locks and a pooled connection). Then one transaction claims those
 * still due with FOR UPDATE SKIP LOCKED, creates their pipelines and advances next_run_at, so a
 * due run fires exactly once however many replicas tick at the same moment. Only an answer
 * advances a schedule: a ref that names nothing (or a project gone) skips the run, as GitLab's
 * schedule moves on when its pipeline cannot be created; a lookup that got no answer (namespaces
 * down, a timeout) leaves the schedule due, and a later pass fires it.
 */
export async function tick(db: Db, bus: { call: Ctx<unknown>["call"] }, events: Pick<EventBus, "transact">, limit = 100): Promise<number[]> {
  const candidates = await dueCandidates(db, limit);
  if (!candidates.length) return [];
  /** What each answered lookup found (null: nothing to run); a schedule missing here got no answer. */
  const targets = new Map<number, Awaited<ReturnType<typeof pipelineRef>>>();
  await Promise.all(
    candidates.map(async (s) => {
      try {
        targets.set(s.id, await pipelineRef(bus, s.projectId, s.ref));
      } catch (err) {
        if (!isUnanswered(err)) targets.set(s.id, null);
      }
    }),
  );
  const created = await events.transact(async (tx) => {
    const claimed = await tx
      .select()
      .from(pipelineSchedules)
      .where(and(inArray(pipelineSchedules.id, candidates.map((c) => c.id)), eq(pipelineSchedules.active, true), lte(pipelineSchedules.nextRunAt, sql`now()`)))
      .orderBy(pipelineSchedules.id)
      .for("update", { skipLocked: true });
    const fired: Awaited<ReturnType<typeof createPipeline>>[] = [];
    const now = new Date();
    for (const s of claimed) {
      // No answer, or the ref edited since the candidates were read: still due, looked up again next pass.
      if (!targets.has(s.id) || s.ref !== candidates.find((c) => c.id === s.id)?.ref) continue;
      const target = targets.get(s.id);
      if (target) {
        fired.push(await createPipeline(tx, { projectId: s.projectId, ...target, source: "schedule", userId: s.ownerId, scheduleId: s.id }));
      }
      const next = nextRunAt(s.cron, s.cronTimezone, now);
      // A schedule that can never fire again is deactivated rather than retried forever.
      await tx.update(pipelineSchedules).set(next ? { nextRunAt: next } : { active: false }).where(eq(pipelineSchedules.id, s.id));
    }
    return fired;
  }, (fired) => fired.map(({ pipeline, job }) => jobStatusChanged(job, pipeline, null)));
  return created.map(({ pipeline }) => pipeline.id);
}
