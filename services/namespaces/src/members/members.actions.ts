import { Accounts } from "@collab/accounts-contract";
import { call, conflict, implement, currentSettings, notFound, page, recordNotFound, requireCaller, validationFailed, type Ctx, type UserRef, broadcast } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces, splitList } from "@collab/namespaces-contract";
import { memberEvent } from "../shared/events";
import { userRefs, userRefsByUsername } from "../shared/users";
import { requireRole } from "./access";
import { createMembers, MEMBER_ERRORS, toSentence, type Outcome } from "./creator";
import { resolveInvitees } from "./invitees";
import { groupSamlIdentities, identitySlot, presentInvitedMember, presentMember } from "./member.entity";
import { findMember, findMembers, highestLevels, memberUserIds, type ListedMember } from "./members.finder";
import { addMember, assertMayGrant, directMembership, EXPIRES_IN_PAST, inPast, promotionNeedsApproval, queuePromotion, removeMember, updateMember, type Actor } from "./members";
import { ACCESS_LEVEL_NOT_IN_LIST, memberLevelValid, usingSeat } from "./seats";
import { manageMembersRole, memberSource, type ResolvedSource } from "./source";

/** Member rows as the API shows them, user refs fetched for the whole page at once. */
async function presentMembers(kit: ServiceKit, ctx: Ctx<unknown>, rows: ListedMember[], showSeatInfo = false) {
  const userIds = rows.filter((r) => r.inviteEmail === null).map((r) => r.userId);
  const people = rows.filter((r) => r.inviteEmail === null);
  const [refs, saml] = await Promise.all([userRefs(ctx, [...userIds, ...rows.map((r) => r.createdById)]), groupSamlIdentities(kit.db, ctx, people)]);
  let seat: (userId: number) => boolean | undefined = () => undefined;
  if (showSeatInfo) {
    const [details, highest] = await Promise.all([
      call(ctx, Accounts.users.memberDetails, { ids: userIds }),
      highestLevels(kit.db, userIds),
    ]);
    const byId = new Map(details.map((d) => [d.id, d]));
    seat = (id) => {
      const d = byId.get(id);
      return d ? usingSeat(kit.config.LICENSE_TIER, d, highest.get(id) ?? 0) : false;
    };
  }
  const extras = (id: number) => (showSeatInfo ? { usingSeat: seat(id) } : {});
  const createdBy = (r: ListedMember) => (r.createdById ? (refs.get(r.createdById) ?? null) : null);
  return rows.flatMap((r): (ReturnType<typeof presentInvitedMember> | ReturnType<typeof presentMember>)[] => {
    if (r.inviteEmail !== null) return [presentInvitedMember(r, createdBy(r), showSeatInfo ? { usingSeat: false } : {})];
    const user = refs.get(r.userId);
    return user ? [presentMember(r, user, createdBy(r), { ...extras(r.userId), groupSamlIdentity: saml.get(identitySlot(r)) ?? null })] : [];
  });
}

async function resolveUser(ctx: Ctx<unknown>, userId: number | string | undefined, username: string | undefined): Promise<UserRef> {
  if (username !== undefined) {
    const [user] = await userRefsByUsername(ctx, [username]);
    if (!user) throw notFound("User");
    return user;
  }
  const id = Number(userId);
  const refs = Number.isInteger(id) ? await userRefs(ctx, [id]) : new Map<number, UserRef>();
  const user = refs.get(id);
  if (!user) throw notFound("User");
  return user;
}

/** Whether enable_member_promotion_management holds back this caller's promotions (Ultimate; never administrators). */
export const promotionsQueued = (kit: ServiceKit, ctx: Ctx<unknown>) =>
  kit.config.LICENSE_TIER === "ultimate" && currentSettings().enable_member_promotion_management === true && !requireCaller(ctx).admin;

/** member_role_id is an Ultimate param: on other tiers Grape never declares it, so it is dropped. */
const memberRoleOf = (kit: ServiceKit, id: number | undefined) => (kit.config.LICENSE_TIER === "ultimate" ? id : undefined);

/** The model's access_level validation as the members API renders it (400 {"message": {...}}). */
function assertMemberLevel(kit: ServiceKit, src: ResolvedSource, level: number) {
  if (!memberLevelValid(kit.config.LICENSE_TIER, level, src.topLevelGroup)) throw validationFailed({ access_level: [ACCESS_LEVEL_NOT_IN_LIST] });
}

/** POST /members with several users (Members::CreateService): {status} with a sentence of errors. */
function createServiceAnswer(outcomes: Outcome[]) {
  const errors = outcomes.flatMap((o) => (o.kind === "error" ? [`${o.key}: ${o.message}`] : []));
  const queued = Object.fromEntries(outcomes.flatMap((o) => (o.kind === "queued" ? [[o.key, MEMBER_ERRORS.queued]] : [])));
  const withQueued = Object.keys(queued).length ? { queued_users: queued } : {};
  return errors.length ? { status: "error", message: toSentence(errors), ...withQueued } : { status: "success", ...withQueued };
}

/** The members API of groups and projects: direct and inherited members, and their changes. */
export const membersActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  // Also asked over the bus (accounts), hence a contract entry; published: it is a route.
  "members.list": implement(
    Namespaces.members.list,
    async (ctx) => {
      const { source } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      const { inherited, query } = ctx.params;
      let matchingUserIds: number[] | undefined;
      if (query) {
        const ids = await memberUserIds(kit.db, source, inherited);
        matchingUserIds = await call(ctx, Accounts.users.match, { ids, query });
      }
      const { rows, total } = await findMembers(
        kit.db,
        source,
        inherited,
        {
          userIds: ctx.params.user_ids,
          // skip_users is a param of /members only; /members/all does not declare it.
          skipUsers: inherited ? undefined : ctx.params.skip_users,
          matchingUserIds,
          query: query || undefined,
          awaitingOnly: kit.config.LICENSE_TIER !== "free" && ctx.params.state === "awaiting",
        },
        ctx.params,
      );
      return page(await presentMembers(kit, ctx, rows, ctx.params.show_seat_info), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "members.get": implement(
    Namespaces.members.get,
    async (ctx) => {
      const { source } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      const member = await findMember(kit.db, source, ctx.params.user_id, ctx.params.inherited);
      const [presented] = member ? await presentMembers(kit, ctx, [{ ...member, inviteEmail: null }]) : [];
      // GitLab looks the member up with find_by!: ActiveRecord's lower-case "404 Not found".
      if (!presented) throw recordNotFound();
      return presented;
    },
    { visibility: "published" },
  ),

  // Also asked over the bus (accounts makes its bots members), hence a contract entry.
  "members.add": implement(
    Namespaces.members.add,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const src = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      requireRole(src.role, manageMembersRole(ctx.params.source));
      const actor: Actor = { id: caller.id, role: src.role };
      const p = { ...ctx.params, member_role_id: memberRoleOf(kit, ctx.params.member_role_id) };
      const userIds = splitList(ctx.params.user_id);
      const usernames = splitList(ctx.params.username);
      if (userIds.length > 1 || usernames.length > 1) {
        // Several users: Members::CreateService, every user reported in one answer.
        if (memberLevelValid(kit.config.LICENSE_TIER, p.access_level, src.topLevelGroup)) assertMayGrant(actor.role, p.access_level);
        const { invitees } = await resolveInvitees(ctx, { userIds, usernames });
        const outcomes = await kit.events.transact(
          (tx) =>
            createMembers(tx, src.source, invitees, p, {
              tier: kit.config.LICENSE_TIER,
              topLevelGroup: src.topLevelGroup,
              queuePromotions: promotionsQueued(kit, ctx),
              createdById: caller.id,
            }),
          (out) => out.flatMap((o) => (o.kind === "member" ? [memberEvent(Namespaces.events.memberAdded, src.source, o.userId, p.access_level, caller.id)] : [])),
        );
        for (const o of outcomes) if (o.kind === "member") broadcast(ctx, Namespaces.events.membersChanged, { userId: o.userId });
        return createServiceAnswer(outcomes);
      }
      const user = await resolveUser(ctx, userIds[0] ?? ctx.params.user_id, usernames[0]);
      if (await directMembership(kit.db, src.source, user.id)) throw conflict("Member already exists");
      assertMemberLevel(kit, src, p.access_level);
      assertMayGrant(actor.role, p.access_level);
      if (promotionsQueued(kit, ctx) && (await promotionNeedsApproval(kit.db, kit.config.LICENSE_TIER, user.id, p.access_level))) {
        // Held back for an administrator: GitLab answers the queue message instead of the member.
        if (inPast(p.expires_at)) throw validationFailed({ expires_at: [EXPIRES_IN_PAST] });
        await queuePromotion(kit.db, src.source, user.id, p, caller.id);
        return { message: { [user.username]: MEMBER_ERRORS.queued } };
      }
      const member = await kit.events.transact(
        (tx) => addMember(tx, src.source, actor, user.id, p),
        (m) => [memberEvent(Namespaces.events.memberAdded, src.source, user.id, m.accessLevel, caller.id)],
      );
      broadcast(ctx, Namespaces.events.membersChanged, { userId: user.id });
      return (await presentMembers(kit, ctx, [{ ...member, inviteEmail: null }]))[0];
    },
    { visibility: "published" },
  ),

  "members.update": implement(
    Namespaces.members.update,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const src = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      requireRole(src.role, manageMembersRole(ctx.params.source));
      assertMemberLevel(kit, src, ctx.params.access_level);
      const p = { ...ctx.params, member_role_id: memberRoleOf(kit, ctx.params.member_role_id) };
      const member = await updateMember(kit.db, src.source, { id: caller.id, role: src.role }, ctx.params.user_id, p);
      broadcast(ctx, Namespaces.events.membersChanged, { userId: member.userId });
      return (await presentMembers(kit, ctx, [{ ...member, inviteEmail: null }]))[0];
    },
    { visibility: "published" },
  ),

  "members.remove": implement(
    Namespaces.members.remove,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { source, role } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
      if (caller.id !== ctx.params.user_id) requireRole(role, manageMembersRole(ctx.params.source));
      await kit.events.transact(
        (tx) => removeMember(tx, source, { id: caller.id, role }, ctx.params.user_id),
        () => [memberEvent(Namespaces.events.memberRemoved, source, ctx.params.user_id, null, caller.id)],
      );
      broadcast(ctx, Namespaces.events.membersChanged, { userId: ctx.params.user_id });
      return null;
    },
    { visibility: "published" },
  ),
});
