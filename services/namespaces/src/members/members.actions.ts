import { AccessLevel, action, gBool, notFound, page, recordNotFound, requireCaller, type Ctx, type UserRef } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import type { MemberRow } from "../db/schema";
import { NAMESPACES_EVENTS } from "../shared/events";
import { userRefs, userRefsByUsername } from "../shared/users";
import { requireRole } from "./access";
import { readableGroup, readableProject } from "./authorize";
import { groupSamlIdentities, identitySlot, presentMember } from "./member.entity";
import { findMember, findMembers, memberUserIds, type MemberSource } from "./members.finder";
import { AddMemberParams, ListMembersParams, MemberParams, RemoveMemberParams, UpdateMemberParams, type SourceKind } from "./members.params";
import { addMember, removeMember, updateMember } from "./members";

/** The group or project a members route addresses, with the caller's role on it. */
async function memberSource(kit: ServiceKit, ctx: Ctx<unknown>, kind: SourceKind, ref: string): Promise<{ source: MemberSource; role: number }> {
  if (kind === "projects") {
    const p = await readableProject(kit.db, ctx, ref);
    const inherited = p.namespace.kind === "group" ? p.namespace.traversalIds : [];
    return { source: { type: "Project", id: p.project.id, inheritedGroupIds: inherited }, role: p.role };
  }
  const g = await readableGroup(kit.db, ctx, ref);
  return { source: { type: "Namespace", id: g.group.id, inheritedGroupIds: g.group.traversalIds.filter((id) => id !== g.group.id) }, role: g.role };
}

/** Who may add, change or remove members: project Maintainers, group Owners. */
const manageMembersRole = (kind: SourceKind) => (kind === "projects" ? AccessLevel.MAINTAINER : AccessLevel.OWNER);

async function presentMembers(kit: ServiceKit, ctx: Ctx<unknown>, rows: MemberRow[]) {
  const [refs, saml] = await Promise.all([userRefs(ctx, rows.flatMap((r) => [r.userId, r.createdById])), groupSamlIdentities(kit.db, ctx, rows)]);
  return rows
    .filter((r) => refs.has(r.userId))
    .map((r) => presentMember(r, refs.get(r.userId)!, r.createdById ? (refs.get(r.createdById) ?? null) : null, saml.get(identitySlot(r)) ?? null));
}

async function resolveUser(ctx: Ctx<unknown>, userId: number | string | undefined, username: string | undefined): Promise<UserRef> {
  if (username !== undefined) {
    const [user] = await userRefsByUsername(ctx, [username]);
    if (!user) throw notFound("User");
    return user;
  }
  const id = Number(String(userId).split(",")[0]);
  const refs = await userRefs(ctx, [id]);
  const user = refs.get(id);
  if (!user) throw notFound("User");
  return user;
}

/** The members API of groups and projects: direct and inherited members, and their changes. */
export const membersActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "members.list": action({
    idempotent: true,
    input: () => ListMembersParams.extend({ inherited: gBool().default(false) }),
    async handler(ctx) {
      const { source } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      const inherited = ctx.params.inherited;
      let matchingUserIds: number[] | undefined;
      if (ctx.params.query) {
        const ids = await memberUserIds(kit.db, source, inherited);
        matchingUserIds = await ctx.call<number[], { ids: number[]; query: string }>("accounts.users.match", { ids, query: ctx.params.query });
      }
      const { rows, total } = await findMembers(kit.db, source, inherited, { userIds: ctx.params.user_ids, skipUsers: ctx.params.skip_users, matchingUserIds }, ctx.params);
      return page(await presentMembers(kit, ctx, rows), total, ctx.params);
    },
  }),

  "members.get": action({
    idempotent: true,
    input: () => MemberParams.extend({ inherited: gBool().default(false) }),
    async handler(ctx) {
      const { source } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      const member = await findMember(kit.db, source, ctx.params.user_id, ctx.params.inherited);
      const [presented] = member ? await presentMembers(kit, ctx, [member]) : [];
      // GitLab looks the member up with find_by!: ActiveRecord's lower-case "404 Not found".
      if (!presented) throw recordNotFound();
      return presented;
    },
  }),

  "members.add": action({
    input: () => AddMemberParams,
    async handler(ctx) {
      const caller = requireCaller(ctx);
      const { source, role } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      requireRole(role, manageMembersRole(ctx.params.source));
      const user = await resolveUser(ctx, ctx.params.user_id, ctx.params.username);
      const member = await addMember(kit.db, source, { id: caller.id, role }, user.id, ctx.params);
      ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { userId: user.id });
      return (await presentMembers(kit, ctx, [member]))[0];
    },
  }),

  "members.update": action({
    input: () => UpdateMemberParams,
    async handler(ctx) {
      const caller = requireCaller(ctx);
      const { source, role } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      requireRole(role, manageMembersRole(ctx.params.source));
      const member = await updateMember(kit.db, source, { id: caller.id, role }, ctx.params.user_id, ctx.params);
      ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { userId: member.userId });
      return (await presentMembers(kit, ctx, [member]))[0];
    },
  }),

  "members.remove": action({
    input: () => RemoveMemberParams,
    async handler(ctx) {
      const caller = requireCaller(ctx);
      const { source, role } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      if (caller.id !== ctx.params.user_id) requireRole(role, manageMembersRole(ctx.params.source));
      await removeMember(kit.db, source, { id: caller.id, role }, ctx.params.user_id);
      ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { userId: ctx.params.user_id });
      return null;
    },
  }),
});
