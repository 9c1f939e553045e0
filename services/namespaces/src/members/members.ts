import { AccessLevel, conflict, forbidden, recordNotFound, validationFailed, type Config } from "@collab/core";
import type { Db } from "@collab/db";
import { and, countDistinct, eq, inArray, sql } from "drizzle-orm";
import { invitations, memberApprovals, members, type MemberRow } from "../db/schema";
import { highestLevels, type MemberSource } from "./members.finder";
import { activeMember } from "./access";
import { billableLevel } from "./seats";

/** Who acts on members: their id, effective role on the source (60 for administrators). */
export interface Actor {
  id: number;
  role: number;
}

/**
 * Nobody grants, or touches, a level above their own: a project Maintainer cannot make or change
 * an Owner (GitLab's manage_owners; Members::CreatorService's member_role_too_high?).
 */
export function assertMayGrant(role: number, level: number, current?: number) {
  if (level > role || (current ?? 0) > role) throw forbidden();
}

/** GitLab's future_date validation of expires_at: today is still allowed (UTC, as the server runs). */
export const inPast = (expiresAt: string | undefined | null) => !!expiresAt && expiresAt < new Date().toISOString().slice(0, 10);
export const EXPIRES_IN_PAST = "cannot be a date in the past";

function assertNotInPast(expiresAt: string | undefined) {
  if (inPast(expiresAt)) throw validationFailed({ expires_at: [EXPIRES_IN_PAST] });
}

export async function directMembership(db: Db, source: MemberSource, userId: number): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.sourceType, source.type), eq(members.sourceId, source.id), eq(members.userId, userId)));
  return row;
}

/**
 * enable_member_promotion_management: whether giving `level` to the user promotes them from no
 * billable role anywhere into a billable one (GitLab's NonBillableUsersFinder), which an
 * administrator must then approve.
 */
export async function promotionNeedsApproval(db: Db, tier: Config["LICENSE_TIER"], userId: number, level: number): Promise<boolean> {
  if (!billableLevel(tier, level)) return false;
  const highest = (await highestLevels(db, [userId])).get(userId) ?? 0;
  return !billableLevel(tier, highest);
}

/** Records (or renews) the pending request an administrator approves (GitLab's member_approvals). */
export async function queuePromotion(
  db: Db,
  source: MemberSource,
  userId: number,
  p: { access_level: number; expires_at?: string; member_role_id?: number },
  requestedById: number,
): Promise<void> {
  await db
    .insert(memberApprovals)
    .values({
      sourceType: source.type,
      sourceId: source.id,
      userId,
      newAccessLevel: p.access_level,
      expiresAt: p.expires_at ?? null,
      memberRoleId: p.member_role_id ?? null,
      requestedById,
    })
    .onConflictDoUpdate({
      target: [memberApprovals.sourceType, memberApprovals.sourceId, memberApprovals.userId],
      targetWhere: sql`${memberApprovals.status} = 'pending'`,
      set: { newAccessLevel: p.access_level, expiresAt: p.expires_at ?? null, memberRoleId: p.member_role_id ?? null, requestedById, updatedAt: new Date() },
    });
}

/** POST /:source/members for one user, after the user and the caller's right were checked. */
export async function addMember(
  db: Db,
  source: MemberSource,
  actor: Actor,
  userId: number,
  p: { access_level: number; expires_at?: string; member_role_id?: number },
): Promise<MemberRow> {
  // GitLab's order: an existing member is a conflict before any other check on the new one.
  if (await directMembership(db, source, userId)) throw conflict("Member already exists");
  assertMayGrant(actor.role, p.access_level);
  assertNotInPast(p.expires_at);
  const [row] = await db
    .insert(members)
    .values({
      sourceType: source.type,
      sourceId: source.id,
      userId,
      accessLevel: p.access_level,
      expiresAt: p.expires_at ?? null,
      createdById: actor.id,
      memberRoleId: p.member_role_id ?? null,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict("Member already exists");
  return row;
}

/**
 * A group must keep at least one Owner. For a subgroup, Owners of its ancestors count too
 * (GitLab's member_owners_excluding_project_bots: members_with_parents below the root).
 */
export async function isLastOwner(db: Db, source: MemberSource, member: Pick<MemberRow, "accessLevel">): Promise<boolean> {
  if (source.type !== "Namespace" || member.accessLevel !== AccessLevel.OWNER) return false;
  const [{ n }] = await db
    .select({ n: countDistinct(members.userId) })
    .from(members)
    .where(
      and(
        eq(members.sourceType, "Namespace"),
        inArray(members.sourceId, [...source.inheritedGroupIds, source.id]),
        eq(members.accessLevel, AccessLevel.OWNER),
        activeMember,
      ),
    );
  return n <= 1;
}

async function assertNotLastOwner(db: Db, source: MemberSource, member: MemberRow) {
  if (await isLastOwner(db, source, member)) throw forbidden();
}

export async function updateMember(
  db: Db,
  source: MemberSource,
  actor: Actor,
  userId: number,
  p: { access_level: number; expires_at?: string | ""; member_role_id?: number },
): Promise<MemberRow> {
  const member = await directMembership(db, source, userId);
  if (!member) throw recordNotFound();
  assertMayGrant(actor.role, p.access_level, member.accessLevel);
  if (p.access_level < AccessLevel.OWNER) await assertNotLastOwner(db, source, member);
  assertNotInPast(p.expires_at);
  const [row] = await db
    .update(members)
    .set({
      accessLevel: p.access_level,
      ...(p.expires_at !== undefined && { expiresAt: p.expires_at === "" ? null : p.expires_at }),
      ...(p.member_role_id !== undefined && { memberRoleId: p.member_role_id }),
      updatedAt: new Date(),
    })
    .where(eq(members.id, member.id))
    .returning();
  return row;
}

export async function removeMember(db: Db, source: MemberSource, actor: Actor, userId: number): Promise<void> {
  const member = await directMembership(db, source, userId);
  if (!member) throw recordNotFound();
  const leaving = actor.id === userId;
  if (!leaving) {
    if (actor.role < AccessLevel.MAINTAINER) throw forbidden();
    assertMayGrant(actor.role, member.accessLevel);
  }
  await assertNotLastOwner(db, source, member);
  await db.delete(members).where(eq(members.id, member.id));
}

/** Memberships of a deleted user disappear everywhere, with their pending promotion requests. */
export async function removeUserEverywhere(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(members).where(eq(members.userId, userId));
    await tx.delete(memberApprovals).where(eq(memberApprovals.userId, userId));
  });
}

/**
 * Everything membership-like of removed groups or projects (memberships, invitations, promotion
 * requests), inside the removal's transaction.
 */
export async function dropSourceMemberships(tx: Db, type: "Namespace" | "Project", ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(members).where(and(eq(members.sourceType, type), inArray(members.sourceId, ids)));
  await tx.delete(invitations).where(and(eq(invitations.sourceType, type), inArray(invitations.sourceId, ids)));
  await tx.delete(memberApprovals).where(and(eq(memberApprovals.sourceType, type), inArray(memberApprovals.sourceId, ids)));
}
