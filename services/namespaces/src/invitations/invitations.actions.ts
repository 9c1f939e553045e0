import { Accounts } from "@collab/accounts-contract";
import { accessLevelName, ApiError, call, notFound, page, requireCaller, type Ctx, broadcast, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { requireRole } from "../members/access";
import { createMembers, type Outcome } from "../members/creator";
import { invitationAnswer, resolveInvitees } from "../members/invitees";
import { presentInvitedMember } from "../members/member.entity";
import { promotionsQueued } from "../members/members.actions";
import { splitList, Namespaces, emailList } from "@collab/namespaces-contract";
import { memberLevelValid } from "../members/seats";
import { manageMembersRole, memberSource, type ResolvedSource } from "../members/source";
import { userRefs } from "../shared/users";
import { presentInvitation } from "./invitation.entity";
import { invitationMail, invitationUrl, mailerOf } from "./invitation.mail";
import { acceptInvitations, removeInvitation, sourceLabel, updateInvitation } from "./invitations";
import { findInvitation, findInvitationByDigest, findInvitations } from "./invitations.finder";
import { inviteTokenDigest } from "./invite-token";

/** Members::CreateService::DEFAULT_INVITE_LIMIT: more invitees in one request is an error. */
const INVITE_LIMIT = 100;

/** The invitations routes: the source as the caller may see it, and the right to manage its members. */
async function managedSource(kit: ServiceKit, ctx: Ctx<{ source: "groups" | "projects"; id: string }>): Promise<ResolvedSource> {
  const src = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
  requireRole(src.role, manageMembersRole(ctx.params.source));
  return src;
}

export const invitationsActions = (kit: ServiceKit): Record<string, ActionSchema> => {
  const mailer = mailerOf(kit);
  const levelValid = (src: ResolvedSource) => (level: number) => memberLevelValid(kit.config.LICENSE_TIER, level, src.topLevelGroup);

  /** One mail per new invitation, after the commit and without holding the request. */
  async function sendInvitationMails(ctx: Ctx<unknown>, src: ResolvedSource, inviterId: number, outcomes: Outcome[], accessLevel: number) {
    const invited = outcomes.filter((o): o is Extract<Outcome, { kind: "invited" }> => o.kind === "invited");
    if (invited.length === 0) return;
    const inviter = (await userRefs(ctx, [inviterId])).get(inviterId) ?? null;
    for (const o of invited)
      mailer().sendLater(invitationMail({ to: o.email, inviter, source: src.label, accessLevel, link: invitationUrl(kit.baseUrl, o.token) }));
  }

  return {
    /** POST /:source/invitations (Members::InviteService): addresses and/or user ids at one level. */
    "invitations.create": implement(
      Namespaces.invitations.create,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const src = await managedSource(kit, ctx);
        const p = { ...ctx.params, member_role_id: kit.config.LICENSE_TIER === "ultimate" ? ctx.params.member_role_id : undefined };
        // Managing an Owner needs Owner rights (manage_owners): the whole request is refused.
        if (levelValid(src)(p.access_level) && p.access_level > src.role) requireRole(src.role, p.access_level);
        const emails = emailList(ctx.params.email);
        const userIds = splitList(ctx.params.user_id);
        if (emails.length + userIds.length === 0) return { status: "error", message: "Invites cannot be blank" };
        if (emails.length + userIds.length > INVITE_LIMIT) return { status: "error", message: `Too many users specified (limit is ${INVITE_LIMIT})` };
        const { invitees, errors } = await resolveInvitees(ctx, { userIds, emails });
        const outcomes = await createMembers(kit.db, src.source, invitees, { ...p, invite_source: p.invite_source ?? "invitations-api" }, {
          tier: kit.config.LICENSE_TIER,
          topLevelGroup: src.topLevelGroup,
          queuePromotions: promotionsQueued(kit, ctx),
          createdById: caller.id,
        });
        for (const o of outcomes) if (o.kind === "member") broadcast(ctx, Namespaces.events.membersChanged, { userId: o.userId });
        await sendInvitationMails(ctx, src, caller.id, outcomes, p.access_level);
        return invitationAnswer(outcomes, errors);
      },
      { visibility: "published" },
    ),

    "invitations.list": implement(
      Namespaces.invitations.list,
      async (ctx) => {
        const src = await managedSource(kit, ctx);
        const { rows, total } = await findInvitations(kit.db, src.source, ctx.params);
        const refs = await userRefs(ctx, rows.map((r) => r.createdById));
        return page(
          rows.map((r) => presentInvitation(r, r.createdById ? (refs.get(r.createdById)?.name ?? null) : null)),
          total,
          ctx.params,
        );
      },
      { visibility: "published" },
    ),

    "invitations.update": implement(
      Namespaces.invitations.update,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const src = await managedSource(kit, ctx);
        const invite = await findInvitation(kit.db, src.source, ctx.params.email);
        if (!invite) throw notFound();
        const p = { ...ctx.params, member_role_id: kit.config.LICENSE_TIER === "ultimate" ? ctx.params.member_role_id : undefined };
        const row = await updateInvitation(kit.db, { id: caller.id, role: src.role }, invite, p, levelValid(src));
        const createdBy = row.createdById ? ((await userRefs(ctx, [row.createdById])).get(row.createdById) ?? null) : null;
        return presentInvitedMember({ ...row, inviteEmail: row.inviteEmail }, createdBy);
      },
      { visibility: "published" },
    ),

    "invitations.remove": implement(
      Namespaces.invitations.remove,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const src = await managedSource(kit, ctx);
        const invite = await findInvitation(kit.db, src.source, ctx.params.email);
        if (!invite) throw notFound();
        await removeInvitation(kit.db, { id: caller.id, role: src.role }, invite);
        return null;
      },
      { visibility: "published" },
    ),

    /** GET /-/invites/:token: the invitation its mail links to, for whoever holds the token. */
    "invitations.show": implement(
      Namespaces.invitations.show,
      async (ctx) => {
        const invite = await findInvitationByDigest(kit.db, inviteTokenDigest(ctx.params.token));
        const label = invite ? await sourceLabel(kit.db, kit.baseUrl, invite) : undefined;
        if (!invite || !label) throw notFound("Invitation");
        const inviter = invite.createdById ? ((await userRefs(ctx, [invite.createdById])).get(invite.createdById) ?? null) : null;
        return {
          invite_email: invite.inviteEmail,
          access_level: invite.accessLevel,
          role: accessLevelName(invite.accessLevel),
          expires_at: invite.expiresAt,
          source_type: label.kind,
          source_name: label.fullName,
          source_web_url: label.webUrl,
          created_by_name: inviter?.name ?? null,
          accept_url: `${invitationUrl(kit.baseUrl, ctx.params.token)}/accept`,
        };
      },
      { visibility: "published" },
    ),

    /**
     * POST /-/invites/:token/accept: the signed-in user whose address is the invited one becomes a
     * member (InvitesController#accept); anyone else is refused.
     */
    "invitations.accept": implement(
      Namespaces.invitations.accept,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const invite = await findInvitationByDigest(kit.db, inviteTokenDigest(ctx.params.token));
        const label = invite ? await sourceLabel(kit.db, kit.baseUrl, invite) : undefined;
        if (!invite || !label) throw notFound("Invitation");
        const [me] = await call(ctx, Accounts.users.memberDetails, { ids: [caller.id] });
        // The token proves the mailbox: the address need not be confirmed yet (GitLab confirms it on sign-up through an invitation).
        if (!me || me.email.toLowerCase() !== invite.inviteEmail)
          throw new ApiError(403, { message: "403 Forbidden - The invitation was sent to another e-mail address" }, "FORBIDDEN");
        const [accepted] = await acceptInvitations(kit.db, [invite], caller.id);
        if (!accepted) throw notFound("Invitation");
        broadcast(ctx, Namespaces.events.membersChanged, { userId: caller.id });
        return {
          message: `You have been granted ${accessLevelName(accepted.accessLevel)} access to ${label.kind} ${label.fullName}.`,
          source_type: label.kind,
          source_web_url: label.webUrl,
          access_level: accepted.accessLevel,
        };
      },
      { visibility: "published" },
    ),
  };
};
