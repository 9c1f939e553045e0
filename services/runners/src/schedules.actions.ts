import { AccessLevel, actionsOf, forbidden, implement, page, reply, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { and, asc, count, desc, eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { presentPipelineBasic } from "./api/runner.entity";
import { presentSchedule, presentScheduleDetails, presentVariable } from "./api/schedule.entity";
import { pipelines, pipelineSchedules, pipelineScheduleVariables, type ScheduleRow } from "./db/schema";
import { projectAccess, userMap, type ProjectAccess } from "./domain/remote";
import { openVariable } from "./domain/variable-secrets";
import { createVariable, findVariable, loadSchedule, playSchedule, scheduleColumns, scheduleVariables, tick } from "./domain/schedules";

/** Reading schedules and their pipelines: Reporter+ (GitLab's read_pipeline_schedule). */
async function readable(ctx: Ctx<unknown>, ref: string) {
  const a = await projectAccess(ctx, ref);
  if (a.role < AccessLevel.REPORTER) throw forbidden();
  return a;
}

const isOwner = (ctx: Ctx<unknown>, s: ScheduleRow) => ctx.meta.caller?.id === s.ownerId;
/** admin_pipeline_schedule: Maintainers, or the owner when a Developer. */
const canAdmin = (ctx: Ctx<unknown>, a: ProjectAccess, s: ScheduleRow) => a.role >= AccessLevel.MAINTAINER || (isOwner(ctx, s) && a.role >= AccessLevel.DEVELOPER);
/** update_pipeline_schedule: administrators, or the owner when a Developer. */
const canUpdate = (ctx: Ctx<unknown>, a: ProjectAccess, s: ScheduleRow) => a.role >= AccessLevel.ADMIN || (isOwner(ctx, s) && a.role >= AccessLevel.DEVELOPER);

async function details(kit: ServiceKit, ctx: Ctx<unknown>, a: ProjectAccess, s: ScheduleRow) {
  const [owners, [last], vars] = await Promise.all([
    userMap(ctx, [s.ownerId]),
    kit.db.select().from(pipelines).where(eq(pipelines.scheduleId, s.id)).orderBy(desc(pipelines.id)).limit(1),
    canAdmin(ctx, a, s) ? scheduleVariables(kit.db, kit.keyring, [s.id]) : Promise.resolve(null),
  ]);
  return presentScheduleDetails(s, owners.get(s.ownerId) ?? null, last ?? null, a.project.web_url, vars ? (vars.get(s.id) ?? []) : null);
}

export const schedulesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "schedules.list": implement(
    Runners.schedules.list,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      const where = and(eq(pipelineSchedules.projectId, a.project.id), ctx.params.scope ? eq(pipelineSchedules.active, ctx.params.scope === "active") : undefined);
      const [rows, [{ total }]] = await Promise.all([
        kit.db.select().from(pipelineSchedules).where(where).orderBy(asc(pipelineSchedules.id)).limit(ctx.params.per_page).offset((ctx.params.page - 1) * ctx.params.per_page),
        kit.db.select({ total: count() }).from(pipelineSchedules).where(where),
      ]);
      const owners = await userMap(ctx, rows.map((r) => r.ownerId));
      return page(rows.map((s) => presentSchedule(s, owners.get(s.ownerId) ?? null)), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "schedules.get": implement(
    Runners.schedules.get,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      return details(kit, ctx, a, await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id));
    },
    { visibility: "published" },
  ),

  "schedules.pipelines": implement(
    Runners.schedules.pipelines,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      const where = eq(pipelines.scheduleId, s.id);
      const [rows, [{ total }]] = await Promise.all([
        kit.db.select().from(pipelines).where(where).orderBy(ctx.params.sort === "desc" ? desc(pipelines.id) : asc(pipelines.id)).limit(ctx.params.per_page).offset((ctx.params.page - 1) * ctx.params.per_page),
        kit.db.select({ total: count() }).from(pipelines).where(where),
      ]);
      return page(rows.map((p) => presentPipelineBasic(p, a.project.web_url)), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "schedules.create": implement(
    Runners.schedules.create,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const a = await projectAccess(ctx, ctx.params.id);
      if (a.role < AccessLevel.DEVELOPER) throw forbidden();
      const { id: _id, ...fields } = ctx.params;
      const cols = await scheduleColumns(ctx, a.project.id, null, fields);
      const [row] = await kit.db
        .insert(pipelineSchedules)
        .values({ ...(cols as typeof pipelineSchedules.$inferInsert), projectId: a.project.id, ownerId: caller.id })
        .returning();
      return details(kit, ctx, a, row);
    },
    { visibility: "published" },
  ),

  "schedules.update": implement(
    Runners.schedules.update,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      if (!canUpdate(ctx, a, s)) throw forbidden();
      const { id: _id, pipeline_schedule_id: _sid, ...fields } = ctx.params;
      const cols = await scheduleColumns(ctx, a.project.id, s, fields);
      const [row] = await kit.db.update(pipelineSchedules).set({ ...cols, updatedAt: new Date() }).where(eq(pipelineSchedules.id, s.id)).returning();
      return details(kit, ctx, a, row);
    },
    { visibility: "published" },
  ),

  /** 201 with the schedule now owned by the caller; 200 when it already was. */
  "schedules.takeOwnership": implement(
    Runners.schedules.takeOwnership,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const a = await readable(ctx, ctx.params.id);
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      if (s.ownerId === caller.id) return reply(200, await details(kit, ctx, a, s));
      if (a.role < AccessLevel.MAINTAINER) throw forbidden();
      const [row] = await kit.db.update(pipelineSchedules).set({ ownerId: caller.id, updatedAt: new Date() }).where(eq(pipelineSchedules.id, s.id)).returning();
      return details(kit, ctx, a, row);
    },
    { visibility: "published" },
  ),

  "schedules.delete": implement(
    Runners.schedules.delete,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      if (!canAdmin(ctx, a, s)) throw forbidden();
      await kit.db.delete(pipelineSchedules).where(eq(pipelineSchedules.id, s.id));
      return null;
    },
    { visibility: "published" },
  ),

  /** Run now: 201 {"message":"201 Created"}; next_run_at is unchanged. */
  "schedules.play": implement(
    Runners.schedules.play,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const a = await readable(ctx, ctx.params.id);
      if (a.role < AccessLevel.DEVELOPER) throw forbidden();
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      await playSchedule(kit.events, ctx, s, caller.id);
      return { message: "201 Created" };
    },
    { visibility: "published" },
  ),

  "schedules.variables.create": implement(
    Runners.schedules.variables.create,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      if (!canUpdate(ctx, a, s)) throw forbidden();
      return presentVariable(await createVariable(kit.db, kit.keyring, s.id, ctx.params));
    },
    { visibility: "published" },
  ),

  "schedules.variables.update": implement(
    Runners.schedules.variables.update,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      if (!canUpdate(ctx, a, s)) throw forbidden();
      const v = await findVariable(kit.db, kit.keyring, s.id, ctx.params.key);
      const set = { ...(ctx.params.value !== undefined && { value: kit.keyring.seal(ctx.params.value) }), ...(ctx.params.variable_type !== undefined && { variableType: ctx.params.variable_type }) };
      // Both params are optional: GitLab answers the unchanged variable (an UPDATE with nothing to set would throw).
      if (Object.keys(set).length === 0) return presentVariable(openVariable(v, kit.keyring));
      const [row] = await kit.db.update(pipelineScheduleVariables).set(set).where(eq(pipelineScheduleVariables.id, v.id)).returning();
      return presentVariable(openVariable(row, kit.keyring));
    },
    { visibility: "published" },
  ),

  /** 202 with the deleted variable, as GitLab answers. */
  "schedules.variables.delete": implement(
    Runners.schedules.variables.delete,
    async (ctx) => {
      const a = await readable(ctx, ctx.params.id);
      const s = await loadSchedule(kit.db, a.project.id, ctx.params.pipeline_schedule_id);
      if (!canUpdate(ctx, a, s)) throw forbidden();
      const v = await findVariable(kit.db, kit.keyring, s.id, ctx.params.key);
      await kit.db.delete(pipelineScheduleVariables).where(eq(pipelineScheduleVariables.id, v.id));
      return reply(202, presentVariable(v));
    },
    { visibility: "published" },
  ),

  ...actionsOf("runners", [
    /** One scheduler pass (the timer calls the same); returns the ids of the pipelines it created. */
    implement(Runners.scheduler.tick, async (ctx) => ({ pipeline_ids: await tick(kit.db, ctx, kit.events) })),
  ]),
});
