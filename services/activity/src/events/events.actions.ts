import { call, AccessLevel, implement, featureHidden, callerOf, notFound, page, requireCaller, type Caller, type Ctx } from "@collab/core";
import { authorizeProject, userMap, type ReadableProjectRef } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentEvent, userIdsOf } from "./event.entity";
import { findEvents, type EventScope, type ProjectSet } from "./events.finder";
import { Activity, type EventFilters } from "@collab/activity-contract";
import { findUser } from "./users";
import { Namespaces } from "@collab/namespaces-contract";

type FeatureLevels = Pick<ReadableProjectRef, "id" | "access_level" | "issues_access_level" | "merge_requests_access_level" | "snippets_access_level">;

const hiddenFeatures = (projects: FeatureLevels[]) => ({
  Issue: projects.filter((p) => featureHidden(p.issues_access_level, p.access_level)).map((p) => p.id),
  MergeRequest: projects.filter((p) => featureHidden(p.merge_requests_access_level, p.access_level)).map((p) => p.id),
  Snippet: projects.filter((p) => featureHidden(p.snippets_access_level, p.access_level)).map((p) => p.id),
});

/** The projects the caller reads (or only those they are a member of), where they are Reporter and up, and their hidden features. */
async function projectScope(ctx: Ctx<unknown>, caller: Caller | null, membershipOnly = false): Promise<Pick<EventScope, "readable" | "reporter" | "hidden">> {
  const r = await call(ctx, Namespaces.projects.readable, { membership_only: membershipOnly });
  if (r.all) return { readable: "all", reporter: "all" };
  const reporter: ProjectSet = caller?.admin ? "all" : r.projects.filter((p) => p.access_level >= AccessLevel.REPORTER).map((p) => p.id);
  return { readable: r.projects.map((p) => p.id), reporter, hidden: hiddenFeatures(r.projects) };
}

/** A page of the scope's events: projects' only, as the spec excludes epic events from every list. */
async function presentPage(kit: ServiceKit, ctx: Ctx<unknown>, scope: EventScope, f: EventFilters) {
  const { rows, total } = await findEvents(kit.db, scope, f);
  const users = await userMap(ctx, userIdsOf(rows));
  return page(rows.map((e) => presentEvent(e, users)), total, f);
}

export const eventsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** GET /events: the caller's own events; scope=all: every event of the projects they are a member of. No epic events (the spec). */
  "events.own": implement(
    Activity.eventLists.own,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const all = ctx.params.scope === "all";
      const scope = await projectScope(ctx, caller, all);
      return presentPage(kit, ctx, { ...scope, authorId: all ? undefined : caller.id, callerId: caller.id }, ctx.params);
    },
    { visibility: "published" },
  ),

  /** GET /users/:id/events: 404 User Not Found; a private profile or blocked user shows no events but to admins and themselves. */
  "events.ofUser": implement(
    Activity.eventLists.ofUser,
    async (ctx) => {
      const caller = callerOf(ctx);
      const user = await findUser(ctx, ctx.params.id);
      if (!user) throw notFound("User");
      const self = caller?.id === user.id;
      if (!caller?.admin && !self && (user.private_profile || user.state === "blocked" || user.state === "banned")) return page([], 0, ctx.params);
      const scope = await projectScope(ctx, caller);
      return presentPage(kit, ctx, { ...scope, authorId: user.id, callerId: caller?.id ?? null }, ctx.params);
    },
    { visibility: "published" },
  ),

  /** GET /projects/:id/events: the project as the caller sees it (404 when hidden). */
  "events.ofProject": implement(
    Activity.eventLists.ofProject,
    async (ctx) => {
      const caller = callerOf(ctx);
      const { project, role } = await authorizeProject(ctx, ctx.params.id);
      const reporter: ProjectSet = role >= AccessLevel.REPORTER ? [project.id] : [];
      const hidden = hiddenFeatures([{ ...project, access_level: role }]);
      return presentPage(kit, ctx, { readable: [project.id], reporter, hidden, callerId: caller?.id ?? null }, ctx.params);
    },
    { visibility: "published" },
  ),
});
