import { call, callerOf, implement, page, recordNotFound, reply, unprocessable, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Integrations, TRIGGERS, triggerByFlag, type HookLevel, type HookWrite } from "@collab/integrations-contract";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories } from "@collab/repositories-contract";
import { Runners } from "@collab/runners-contract";
import { and, desc, eq, gte, sql, type SQL } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { randomUUID } from "node:crypto";
import { webHookLogs } from "../db/schema";
import { enrich, refsWithActor } from "./enrich";
import { describeHookEvent } from "./events";
import { executeHook } from "./execute";
import { presentHook, presentLog } from "./hook.entity";
import { createHook, deleteHook, findHook, hookOwner, listHooks, updateHook, type HookOwner } from "./hooks.domain";

/** Hook logs listed: the last 7 days (GitLab keeps and shows a week). */
const LOG_DAYS = 7;

/** What GitLab's TestHooks services answer when the project has nothing to build a trigger's sample from. */
const NO_DATA: Record<string, string> = {
  push_events: "Ensure the project has at least one commit.",
  tag_push_events: "Ensure the project has at least one commit.",
  note_events: "Ensure the project has notes.",
  issues_events: "Ensure the project has issues.",
  confidential_issues_events: "Ensure the project has issues.",
  merge_requests_events: "Ensure the project has merge requests.",
  job_events: "Ensure the project has CI jobs.",
  pipeline_events: "Ensure the project has CI pipelines.",
  wiki_page_events: "Ensure the wiki is enabled and has pages.",
  releases_events: "Ensure the project has releases.",
  emoji_events: "Ensure the project has notes.",
  resource_access_token_events: "Ensure the project has access tokens.",
};

/**
 * The sample a test of a project hook sends (GitLab's TestHooks::ProjectService): the project's
 * latest issue or merge request as its "open" event would carry it, its latest job as its last
 * status change, or its default branch's head as a push; null when there is none or the trigger
 * has no source here.
 */
async function sampleData(ctx: Ctx<unknown>, projectId: number, trigger: string): Promise<Record<string, unknown> | null> {
  const actorId = callerOf(ctx as never)?.id ?? 0;
  let event: { name: string; payload: Record<string, unknown> } | null = null;
  if (trigger === "issues_events" || trigger === "confidential_issues_events") {
    const found = await call(ctx, Issues.issues.listProject, { id: String(projectId), per_page: 1, confidential: trigger === "confidential_issues_events" } as never);
    const i = found.items[0];
    if (i) event = { name: Issues.events.issueOpened.name, payload: { id: i.id, iid: i.iid, project_id: projectId, actor_id: actorId, title: i.title, confidential: i.confidential } };
  } else if (trigger === "merge_requests_events") {
    const found = await call(ctx, MergeRequests.mergeRequests.listProject, { id: String(projectId), per_page: 1 } as never);
    const m = found.items[0];
    if (m) event = { name: MergeRequests.events.mergeRequestOpened.name, payload: { id: m.id, iid: m.iid, project_id: projectId, actor_id: actorId, title: m.title, state: m.state } };
  } else if (trigger === "job_events") {
    const job = await call(ctx, Runners.jobs.latestEvent, { project_id: projectId });
    if (job) event = { name: Runners.events.jobStatusChanged.name, payload: job };
  }
  const [project] = await call(ctx, Namespaces.projects.summaries, { ids: [projectId] });
  if (!project) return null;
  if ((trigger === "push_events" || trigger === "tag_push_events") && project.default_branch) {
    // GitLab's push sample, for both push triggers: the default branch's head as pushed onto its parent.
    const head = await call(ctx, Repositories.refs.findCommit, { project_id: projectId, ref: project.default_branch });
    if (head) event = { name: Repositories.events.branchPushed.name, payload: samplePush(project, head, { id: actorId, username: callerOf(ctx as never)?.username ?? "" }) };
  }
  const facts = event && describeHookEvent(event.name, event.payload);
  if (!facts) return null;
  return facts.build(project, await enrich(ctx, refsWithActor(facts.refs, actorId)));
}

/** The commit the push sample shows (the fields a commit lookup answers; those it lacks fall back to its title). */
interface SampleCommit {
  sha: string;
  title: string;
  parent_ids: string[];
  message?: string;
  author_name?: string;
  author_email?: string;
  committed_date?: string;
}

/** A push of the default branch's head onto its parent, as the repositories would announce it. */
function samplePush(project: { id: number; default_branch: string | null; web_url: string }, head: SampleCommit, actor: { id: number; username: string }): Record<string, unknown> {
  const branch = project.default_branch!;
  const commit = {
    id: head.sha,
    message: head.message ?? head.title,
    title: head.title,
    timestamp: head.committed_date ?? new Date().toISOString(),
    url: `${project.web_url}/-/commit/${head.sha}`,
    author: { name: head.author_name ?? "", email: head.author_email ?? "" },
  };
  const before = head.parent_ids[0] ?? "0".repeat(40);
  return { projectId: project.id, ref: `refs/heads/${branch}`, branch, before, after: head.sha, userId: actor.id, userUsername: actor.username, commits: [commit], totalCommitsCount: 1, commitCount: 1, commitTitle: head.title };
}

/** `status` of the events list: a code, or successful (2xx), client_failure (4xx), server_failure (5xx). */
function statusFilter(status: number | string | undefined): SQL | undefined {
  if (status === undefined) return undefined;
  if (typeof status === "number") return eq(webHookLogs.responseStatus, String(status));
  const range = { successful: ["200", "300"], client_failure: ["400", "500"], server_failure: ["500", "600"] }[status]!;
  return sql`${webHookLogs.responseStatus} ~ '^[0-9]{3}$' AND ${webHookLogs.responseStatus} >= ${range[0]} AND ${webHookLogs.responseStatus} < ${range[1]}`;
}

/** The webhooks API of projects and groups: CRUD, test, recent events and resend (GitLab's project_hooks.rb, group_hooks.rb, hooks/*.rb). */
export function hooksActions(kit: ServiceKit): Record<string, ActionSchema> {
  const levelActions = (level: HookLevel): Record<string, ActionSchema> => {
    const A = Integrations[`${level}Hooks`];
    const key = `${level}Hooks`;
    const owner = (ctx: Ctx<unknown>, ref: string): Promise<HookOwner> => hookOwner(ctx, level, ref);
    return {
      [`${key}.list`]: implement(A.list, async (ctx) => (await listHooks(kit.db, await owner(ctx, ctx.params.id))).map((h) => presentHook(level, h)), { visibility: "published" }),
      [`${key}.get`]: implement(A.get, async (ctx) => presentHook(level, await findHook(kit.db, await owner(ctx, ctx.params.id), ctx.params.hook_id)), { visibility: "published" }),
      [`${key}.create`]: implement(
        A.create,
        async (ctx) => {
          const o = await owner(ctx, ctx.params.id);
          return presentHook(level, await createHook(kit.db, kit.keyring, o, ctx.params as HookWrite));
        },
        { visibility: "published" },
      ),
      [`${key}.update`]: implement(
        A.update,
        async (ctx) => {
          const o = await owner(ctx, ctx.params.id);
          const { id: _id, hook_id, ...params } = ctx.params;
          return presentHook(level, await updateHook(kit.db, kit.keyring, o, hook_id, params as HookWrite));
        },
        { visibility: "published" },
      ),
      [`${key}.delete`]: implement(
        A.delete,
        async (ctx) => {
          await deleteHook(kit.db, await owner(ctx, ctx.params.id), ctx.params.hook_id);
          return null;
        },
        { visibility: "published" },
      ),
      [`${key}.test`]: implement(
        A.test,
        async (ctx) => {
          const o = await owner(ctx, ctx.params.id);
          const hook = await findHook(kit.db, o, ctx.params.hook_id);
          const data = level === "project" ? await sampleData(ctx, o.id, ctx.params.trigger) : null;
          if (!data) throw unprocessable(NO_DATA[ctx.params.trigger]);
          const run = await executeHook(kit.db, kit.keyring, hook, triggerByFlag(ctx.params.trigger)!, data, { eventUuid: randomUUID(), idempotencyKey: randomUUID() });
          if (run.category !== "ok") throw unprocessable(run.status === null ? (run.error ?? "Hook execution failed") : `Hook execution failed: HTTP ${run.status}`);
          return reply(201, { message: "Hook executed successfully" });
        },
        { visibility: "published" },
      ),
      [`${key}.events`]: implement(
        A.events,
        async (ctx) => {
          const hook = await findHook(kit.db, await owner(ctx, ctx.params.id), ctx.params.hook_id);
          const since = new Date(Date.now() - LOG_DAYS * 86_400_000);
          const where = and(eq(webHookLogs.webHookId, hook.id), gte(webHookLogs.createdAt, since), statusFilter(ctx.params.status));
          const [rows, [{ total }]] = await Promise.all([
            kit.db
              .select()
              .from(webHookLogs)
              .where(where)
              .orderBy(desc(webHookLogs.id))
              .limit(ctx.params.per_page)
              .offset((ctx.params.page - 1) * ctx.params.per_page),
            kit.db.select({ total: sql<number>`count(*)::int` }).from(webHookLogs).where(where),
          ]);
          return page(rows.map(presentLog), total, ctx.params);
        },
        { visibility: "published" },
      ),
      [`${key}.resend`]: implement(
        A.resend,
        async (ctx) => {
          const hook = await findHook(kit.db, await owner(ctx, ctx.params.id), ctx.params.hook_id);
          const [log] = await kit.db
            .select()
            .from(webHookLogs)
            .where(and(eq(webHookLogs.id, ctx.params.hook_log_id), eq(webHookLogs.webHookId, hook.id)));
          if (!log) throw recordNotFound();
          if (log.url !== hook.url) throw unprocessable("The hook URL has changed, and this log entry cannot be retried");
          const trigger = TRIGGERS.find((t) => t.scope === log.trigger);
          if (!trigger) throw unprocessable("Unknown trigger");
          // The same event and delivery as the logged execution (GitLab resends with its idempotency key).
          const headers = log.requestHeaders;
          const run = await executeHook(kit.db, kit.keyring, hook, trigger, log.requestData, { eventUuid: headers["X-Gitlab-Event-UUID"] ?? randomUUID(), idempotencyKey: headers["Idempotency-Key"] ?? randomUUID() });
          return reply(201, { response_status: run.status ?? "internal error" });
        },
        { visibility: "published" },
      ),
    };
  };
  return { ...levelActions("project"), ...levelActions("group") };
}
