import { AccessLevel, actionsOf, badRequest, forbidden, implement, notFound, page, requireAdmin, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Runners, RUNNER_SCOPES, RUNNER_STATUSES } from "@collab/runners-contract";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { presentRunner, presentRunnerDetails, presentRunnerJob, presentTokenDetails } from "./api/runner.entity";
import { jobs, pipelines, runners, type RunnerRow } from "./db/schema";
import { groupAccess, groupsWithLevel, memberProjects, projectAccess, userMap, type ProjectAccess } from "./domain/remote";
import {
  assertCanManage,
  assertCanRead,
  createRunner,
  deleteRunner,
  linkProject,
  loadRunner,
  registrationScopeOf,
  resetRegistrationToken,
  runnerByToken,
  runnerColumns,
  runnerLevel,
  runnerProjectCount,
  runnerProjectIds,
  setRunnerToken,
  unlinkProject,
  updateRunner,
  type RegistrationScope,
} from "./domain/runners";
import { createdRunnerToken, registeredRunnerToken, registrationToken } from "./domain/tokens";
import { findRunners } from "./finders/runners.finder";

/** Runners' projects and groups as the detail entity embeds them. */
async function presentDetails(kit: ServiceKit, ctx: Ctx<unknown>, runner: RunnerRow) {
  const ids = await runnerProjectIds(kit.db, runner.id);
  const projects = (
    await Promise.all(
      ids.map((id) =>
        projectAccess(ctx, id).then(
          (a) => a.project,
          () => null,
        ),
      ),
    )
  )
    .filter((p): p is ProjectAccess["project"] => p !== null)
    .map((p) => ({ id: p.id, name: p.name, name_with_namespace: p.name_with_namespace, path: p.path, path_with_namespace: p.path_with_namespace }));
  let groups: { id: number; web_url: string; name: string }[] = [];
  if (runner.groupId !== null) {
    const g = await groupAccess(ctx, runner.groupId).catch(() => null);
    groups = g ? [{ id: g.group.id, web_url: g.group.web_url, name: g.group.name }] : [];
  }
  return presentRunnerDetails(runner, projects, groups);
}

/** A project the caller may administer runners of: Maintainer+ (404 when hidden). */
async function managedProject(ctx: Ctx<unknown>, ref: string | number) {
  const a = await projectAccess(ctx, ref);
  if (a.role < AccessLevel.MAINTAINER) throw forbidden();
  return a;
}

async function ownedGroup(ctx: Ctx<unknown>, ref: string | number) {
  const g = await groupAccess(ctx, ref);
  if (g.role < AccessLevel.OWNER) throw forbidden();
  return g;
}

async function runnerFromToken(kit: ServiceKit, token: string) {
  const runner = await runnerByToken(kit.db, token);
  if (!runner) throw forbidden();
  return runner;
}

export const runnersActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** GET /runners (runners the caller owns) and GET /runners/all (administrators: every runner). */
  "runners.list": implement(
    Runners.runners.list,
    async (ctx) => {
      const { all, ...filters } = ctx.params;
      if (all) {
        requireAdmin(ctx);
        const { rows, total } = await findRunners(kit.db, { all: true }, filters, RUNNER_SCOPES);
        return page(rows.map(presentRunner), total, filters);
      }
      requireCaller(ctx);
      const [projects, groups] = await Promise.all([memberProjects(ctx), groupsWithLevel(ctx, AccessLevel.OWNER)]);
      const set = {
        all: false as const,
        projectIds: projects.projects.filter((p) => p.access_level >= AccessLevel.MAINTAINER).map((p) => p.id),
        groupIds: groups.map((g) => g.id),
      };
      const { rows, total } = await findRunners(kit.db, set, filters, RUNNER_STATUSES);
      return page(rows.map(presentRunner), total, filters);
    },
    { visibility: "published" },
  ),

  "runners.listProject": implement(
    Runners.runners.listProject,
    async (ctx) => {
      const { id, ...filters } = ctx.params;
      const a = await managedProject(ctx, id);
      const { rows, total } = await findRunners(kit.db, { all: false, projectIds: [a.project.id], groupIds: a.project.group_ids, instance: true }, filters, RUNNER_SCOPES);
      return page(rows.map(presentRunner), total, filters);
    },
    { visibility: "published" },
  ),

  "runners.listGroup": implement(
    Runners.runners.listGroup,
    async (ctx) => {
      const { id, ...filters } = ctx.params;
      const g = await ownedGroup(ctx, id);
      const { rows, total } = await findRunners(kit.db, { all: false, projectIds: [], groupIds: g.traversal_ids, instance: true }, filters, RUNNER_SCOPES);
      return page(rows.map(presentRunner), total, filters);
    },
    { visibility: "published" },
  ),

  "runners.get": implement(
    Runners.runners.get,
    async (ctx) => {
      const runner = await loadRunner(kit.db, ctx.params.id);
      await assertCanRead(kit.db, ctx, runner);
      return presentDetails(kit, ctx, runner);
    },
    { visibility: "published" },
  ),

  "runners.update": implement(
    Runners.runners.update,
    async (ctx) => {
      const { id, ...changes } = ctx.params;
      const runner = await loadRunner(kit.db, id);
      await assertCanManage(kit.db, ctx, runner);
      return presentDetails(kit, ctx, await updateRunner(kit.db, runner, changes));
    },
    { visibility: "published" },
  ),

  "runners.delete": implement(
    Runners.runners.delete,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const runner = await loadRunner(kit.db, ctx.params.id);
      if (!caller.admin) {
        if ((await runnerProjectCount(kit.db, runner.id)) > 1) throw forbidden("Runner associated with more than one project");
        await assertCanManage(kit.db, ctx, runner);
      }
      await deleteRunner(kit.db, runner.id);
      return null;
    },
    { visibility: "published" },
  ),

  "runners.jobs": implement(
    Runners.runners.jobs,
    async (ctx) => {
      const runner = await loadRunner(kit.db, ctx.params.id);
      await assertCanManage(kit.db, ctx, runner);
      const where = and(eq(jobs.runnerId, runner.id), ctx.params.status ? eq(jobs.status, ctx.params.status) : undefined);
      const rows = await kit.db.select({ job: jobs, pipeline: pipelines }).from(jobs).innerJoin(pipelines, eq(pipelines.id, jobs.pipelineId)).where(where).orderBy(ctx.params.sort === "asc" ? asc(jobs.id) : desc(jobs.id));
      // Jobs of projects the caller cannot read are left out, as GitLab's RunnerJobsFinder does.
      const projectIds = [...new Set(rows.map((r) => r.job.projectId))];
      const projects = new Map<number, ProjectAccess["project"]>();
      await Promise.all(projectIds.map((pid) => projectAccess(ctx, pid).then((a) => projects.set(pid, a.project), () => undefined)));
      const visible = rows.filter((r) => projects.has(r.job.projectId));
      const start = (ctx.params.page - 1) * ctx.params.per_page;
      const slice = visible.slice(start, start + ctx.params.per_page);
      const users = await userMap(ctx, slice.map((r) => r.job.userId));
      return page(
        slice.map((r) => presentRunnerJob(r.job, r.pipeline, projects.get(r.job.projectId)!, r.job.userId ? (users.get(r.job.userId) ?? null) : null)),
        visible.length,
        ctx.params,
      );
    },
    { visibility: "published" },
  ),

  /** POST /projects/:id/runners: assigns an existing project runner the caller owns. */
  "runners.enableProject": implement(
    Runners.runners.enableProject,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const a = await managedProject(ctx, ctx.params.id);
      const runner = await loadRunner(kit.db, ctx.params.runner_id);
      if (runner.runnerType === "group_type") throw forbidden("Runner is a group runner");
      if (runner.runnerType === "instance_type") throw forbidden("Runner is a shared runner");
      if (!caller.admin) {
        if (runner.locked) throw forbidden("Runner is locked");
        if ((await runnerLevel(kit.db, ctx, runner)) < AccessLevel.MAINTAINER) throw forbidden("No access granted");
      }
      await linkProject(kit.db, runner.id, a.project.id);
      return presentRunner(runner);
    },
    { visibility: "published" },
  ),

  "runners.disableProject": implement(
    Runners.runners.disableProject,
    async (ctx) => {
      const a = await managedProject(ctx, ctx.params.id);
      const runner = await loadRunner(kit.db, ctx.params.runner_id);
      const ids = await runnerProjectIds(kit.db, runner.id);
      if (!ids.includes(a.project.id)) throw notFound("Runner");
      if (ids.length === 1) throw forbidden("Only one project associated with the runner. Please remove the runner instead");
      await unlinkProject(kit.db, runner.id, a.project.id);
      return null;
    },
    { visibility: "published" },
  ),

  // ---- tokens -----------------------------------------------------------------------------------
  /** POST /runners: registers a runner with a registration token (legacy flow). */
  "runners.register": implement(
    Runners.runners.register,
    async (ctx) => {
      const { token, info, maintainer_note, ...rest } = ctx.params;
      const scope = await registrationScopeOf(kit.db, token);
      if (!scope) throw forbidden();
      const clear = registeredRunnerToken();
      const runner = await createRunner(kit.db, {
        runnerType: scope.scope === "instance" ? "instance_type" : scope.scope === "group" ? "group_type" : "project_type",
        groupId: scope.scope === "group" ? scope.scopeId : null,
        projectId: scope.scope === "project" ? scope.scopeId : null,
        token: clear,
        registrationType: "registration_token",
        columns: {
          ...runnerColumns({ ...rest, maintenance_note: rest.maintenance_note ?? maintainer_note }),
          name: info?.name ?? null,
          version: info?.version ?? null,
          revision: info?.revision ?? null,
          platform: info?.platform ?? null,
          architecture: info?.architecture ?? null,
        },
      });
      return presentTokenDetails(runner, clear);
    },
    { visibility: "published" },
  ),

  /** DELETE /runners: a runner unregisters itself with its authentication token. */
  "runners.unregister": implement(
    Runners.runners.unregister,
    async (ctx) => {
      const runner = await runnerFromToken(kit, ctx.params.token);
      await deleteRunner(kit.db, runner.id);
      return null;
    },
    { visibility: "published" },
  ),

  /** POST /runners/verify: checks an authentication token; the runner counts as contacted. */
  "runners.verify": implement(
    Runners.runners.verify,
    async (ctx) => {
      const runner = await runnerFromToken(kit, ctx.params.token);
      await kit.db.update(runners).set({ contactedAt: new Date() }).where(eq(runners.id, runner.id));
      return presentTokenDetails(runner, ctx.params.token);
    },
    { visibility: "published" },
  ),

  "runners.resetOwnToken": implement(
    Runners.runners.resetOwnToken,
    async (ctx) => {
      const runner = await runnerFromToken(kit, ctx.params.token);
      const clear = runner.registrationType === "authenticated_user" ? createdRunnerToken() : registeredRunnerToken();
      const row = await setRunnerToken(kit.db, runner, clear);
      return { token: clear, token_expires_at: presentTokenDetails(row, clear).token_expires_at };
    },
    { visibility: "published" },
  ),

  "runners.resetToken": implement(
    Runners.runners.resetToken,
    async (ctx) => {
      const runner = await loadRunner(kit.db, ctx.params.id);
      await assertCanManage(kit.db, ctx, runner);
      const clear = runner.registrationType === "authenticated_user" ? createdRunnerToken() : registeredRunnerToken();
      const row = await setRunnerToken(kit.db, runner, clear);
      return { token: clear, token_expires_at: presentTokenDetails(row, clear).token_expires_at };
    },
    { visibility: "published" },
  ),

  /** Registration tokens: instance (administrators), project (Maintainers), group (Owners). */
  "runners.resetRegistrationToken": implement(
    Runners.runners.resetRegistrationToken,
    async (ctx) => {
      let scope: RegistrationScope;
      if (ctx.params.source === "instance") {
        requireAdmin(ctx);
        scope = { scope: "instance", scopeId: 0 };
      } else if (ctx.params.source === "projects") {
        scope = { scope: "project", scopeId: (await managedProject(ctx, ctx.params.id ?? "")).project.id };
      } else {
        scope = { scope: "group", scopeId: (await ownedGroup(ctx, ctx.params.id ?? "")).group.id };
      }
      const token = registrationToken();
      await resetRegistrationToken(kit.db, scope, token);
      return { token, token_expires_at: null };
    },
    { visibility: "published" },
  ),

  /** POST /user/runners: a runner created by a signed-in user, with a glrt- token. */
  "runners.createForUser": implement(
    Runners.runners.createForUser,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { runner_type, group_id, project_id, ...rest } = ctx.params;
      let groupId: number | null = null;
      let projectId: number | null = null;
      if (runner_type === "instance_type") {
        if (!caller.admin) throw forbidden("Insufficient permissions");
      } else if (runner_type === "group_type") {
        if (group_id === undefined) throw badRequest("group_id is missing");
        const g = await groupAccess(ctx, group_id);
        if (g.role < AccessLevel.OWNER) throw forbidden("Insufficient permissions");
        groupId = g.group.id;
      } else {
        if (project_id === undefined) throw badRequest("project_id is missing");
        const a = await projectAccess(ctx, project_id);
        if (a.role < AccessLevel.MAINTAINER) throw forbidden("Insufficient permissions");
        projectId = a.project.id;
      }
      const clear = createdRunnerToken();
      const runner = await createRunner(kit.db, { runnerType: runner_type, groupId, projectId, token: clear, registrationType: "authenticated_user", creatorId: caller.id, columns: runnerColumns(rest) });
      return presentTokenDetails(runner, clear);
    },
    { visibility: "published" },
  ),

  ...actionsOf("runners", [
    /** Runners by id list, for other services. */
    implement(Runners.runners.byIds, async (ctx) => {
      if (!ctx.params.ids.length) return [];
      return (await kit.db.select().from(runners).where(inArray(runners.id, ctx.params.ids))).map(presentRunner);
    }),
  ]),
});
