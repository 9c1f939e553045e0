import { call, AccessLevel, implement, forbidden, requireCaller, type Ctx } from "@collab/core";
import { Activity, GroupActivityParams } from "@collab/activity-contract";
import { groupOf, readableProjects } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { Namespaces } from "@collab/namespaces-contract";

/** GitLab's Analytics::GroupActivityCalculator window. */
export const ACTIVITY_WINDOW_DAYS = 90;

/**
 * The group (404 Group Not Found when unknown or hidden) if the caller may read its activity
 * analytics: a Premium feature for Reporter and up (403 otherwise, on the Free tier too, as the
 * policy refuses it there).
 */
async function analyticsGroup(kit: ServiceKit, ctx: Ctx<z.infer<typeof GroupActivityParams>>) {
  requireCaller(ctx);
  const g = await groupOf(ctx, ctx.params.group_path);
  if (kit.config.LICENSE_TIER === "free" || g.role < AccessLevel.REPORTER) throw forbidden();
  return g.group;
}

const since = () => new Date(Date.now() - ACTIVITY_WINDOW_DAYS * 86_400_000);

/** The group tree's projects the caller reads whose feature (issues or merge requests) they may see. */
async function featureProjects(ctx: Ctx<unknown>, groupId: number, feature: "issues_access_level" | "merge_requests_access_level") {
  const { projects } = await readableProjects(ctx, groupId);
  return projects.filter((p) => p[feature] !== "disabled" && (p[feature] !== "private" || p.access_level >= AccessLevel.GUEST));
}

export const groupActivityActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "groupActivity.issuesCount": implement(
    Activity.groupActivity.issuesCount,
    async (ctx) => {
      const group = await analyticsGroup(kit, ctx);
      const projects = await featureProjects(ctx, group.id, "issues_access_level");
      const issues_count = await call(ctx, Issues.analytics.createdSince, {
        project_ids: projects.map((p) => p.id),
        reporter_project_ids: projects.filter((p) => p.access_level >= AccessLevel.REPORTER).map((p) => p.id),
        user_id: ctx.meta.caller?.id ?? null,
        since: since().toISOString(),
      });
      return { issues_count };
    },
    { visibility: "published" },
  ),

  "groupActivity.mergeRequestsCount": implement(
    Activity.groupActivity.mergeRequestsCount,
    async (ctx) => {
      const group = await analyticsGroup(kit, ctx);
      const projects = await featureProjects(ctx, group.id, "merge_requests_access_level");
      const merge_requests_count = await call(ctx, MergeRequests.analytics.createdSince, { project_ids: projects.map((p) => p.id), since: since().toISOString() });
      return { merge_requests_count };
    },
    { visibility: "published" },
  ),

  "groupActivity.newMembersCount": implement(
    Activity.groupActivity.newMembersCount,
    async (ctx) => {
      const group = await analyticsGroup(kit, ctx);
      const new_members_count = await call(ctx, Namespaces.groups.newMembersCount, { group_id: group.id, since: since().toISOString() });
      return { new_members_count };
    },
    { visibility: "published" },
  ),
});
