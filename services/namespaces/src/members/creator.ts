import { type Config } from "@collab/core";
import type { Db } from "@collab/db";
import { invitations, members } from "../db/schema";
import { inviteTokenDigest, newInviteToken } from "../invitations/invite-token";
import type { MemberSource } from "./members.finder";
import { directMembership, inPast, promotionNeedsApproval, queuePromotion } from "./members";
import { memberLevelValid } from "./seats";

/** Who is being added: an existing user (by id, username or a verified address) or an e-mail address. */
export type Invitee = { key: string; userId: number; email?: undefined } | { key: string; email: string; userId?: undefined };

export interface CreateRequest {
  access_level: number;
  expires_at?: string;
  member_role_id?: number;
  invite_source?: string;
}

export interface CreateRules {
  tier: Config["LICENSE_TIER"];
  /** The source is a top-level group (Minimal Access is valid only there). */
  topLevelGroup: boolean;
  /** enable_member_promotion_management applies to this caller (not an administrator). */
  queuePromotions: boolean;
  createdById: number;
}

export type Outcome =
  | { key: string; kind: "member"; userId: number }
  | { key: string; kind: "invited"; email: string; token: string }
  | { key: string; kind: "queued"; userId: number }
  | { key: string; kind: "error"; message: string };

/** GitLab's wording of the model errors an invitee can meet (full messages, joined as to_sentence). */
export const MEMBER_ERRORS = {
  accessLevel: "Access level is not included in the list",
  expiresAt: "Expires at cannot be a date in the past",
  alreadyMember: "User already exists in source",
  alreadyInvited: "Invite email has already been taken",
  invalidEmail: "Invite email is invalid",
  queued: "Request queued for administrator approval.",
} as const;

/** Ruby's Array#to_sentence: "a", "a and b", "a, b, and c". */
export function toSentence(parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? "";
  if (parts.length === 2) return `${parts[0]} and ${parts[1]}`;
  return `${parts.slice(0, -1).join(", ")}, and ${parts[parts.length - 1]}`;
}

/**
 * Members::CreatorService for several invitees at once, in one transaction: each user becomes a
 * direct member (or, when promotion management holds it back, a pending request for an
 * administrator), each address without a user an invitation with a fresh token. What the model
 * refuses is reported per invitee, the others are still created, as GitLab does. Answers one
 * outcome per invitee, in order; the invitation tokens are for the mails sent after the commit.
 */
export async function createMembers(db: Db, source: MemberSource, invitees: Invitee[], req: CreateRequest, rules: CreateRules): Promise<Outcome[]> {
  const common: string[] = [];
  if (!memberLevelValid(rules.tier, req.access_level, rules.topLevelGroup)) common.push(MEMBER_ERRORS.accessLevel);
  if (inPast(req.expires_at)) common.push(MEMBER_ERRORS.expiresAt);
  if (common.length) return invitees.map((i) => ({ key: i.key, kind: "error", message: toSentence(common) }));

  return db.transaction(async (tx) => {
    const out: Outcome[] = [];
    for (const invitee of invitees) {
      if (invitee.userId !== undefined) {
        const userId = invitee.userId;
        if (await directMembership(tx, source, userId)) {
          out.push({ key: invitee.key, kind: "error", message: MEMBER_ERRORS.alreadyMember });
          continue;
        }
        if (rules.queuePromotions && (await promotionNeedsApproval(tx, rules.tier, userId, req.access_level))) {
          await queuePromotion(tx, source, userId, req, rules.createdById);
          out.push({ key: invitee.key, kind: "queued", userId });
          continue;
        }
        const [row] = await tx
          .insert(members)
          .values({
            sourceType: source.type,
            sourceId: source.id,
            userId,
            accessLevel: req.access_level,
            expiresAt: req.expires_at ?? null,
            memberRoleId: req.member_role_id ?? null,
            createdById: rules.createdById,
          })
          .onConflictDoNothing()
          .returning({ id: members.id });
        out.push(row ? { key: invitee.key, kind: "member", userId } : { key: invitee.key, kind: "error", message: MEMBER_ERRORS.alreadyMember });
        continue;
      }
      const token = newInviteToken();
      const [row] = await tx
        .insert(invitations)
        .values({
          sourceType: source.type,
          sourceId: source.id,
          inviteEmail: invitee.email,
          accessLevel: req.access_level,
          expiresAt: req.expires_at ?? null,
          memberRoleId: req.member_role_id ?? null,
          inviteTokenDigest: inviteTokenDigest(token),
          inviteSource: req.invite_source ?? null,
          createdById: rules.createdById,
        })
        .onConflictDoNothing()
        .returning({ id: invitations.id });
      out.push(row ? { key: invitee.key, kind: "invited", email: invitee.email, token } : { key: invitee.key, kind: "error", message: MEMBER_ERRORS.alreadyInvited });
    }
    return out;
  });
}
