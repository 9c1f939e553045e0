import { AccessLevel, conflict, forbidden, recordNotFound, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { and, countDistinct, eq, inArray } from "drizzle-orm";
import { members, type MemberRow } from "../db/schema";
import type { MemberSource } from "./members.finder";
import { activeMember } from "./access";

/** Maintainers manage members below Owner; only Owners (and admins) grant or touch Owner. */
function assertMayGrant(role: number, level: number, current?: number) {
  if (role < AccessLevel.OWNER && (level >= AccessLevel.OWNER || (current ?? 0) >= AccessLevel.OWNER)) throw forbidden();
}

/** GitLab's future_date validation of expires_at: today is still allowed (UTC, as the server runs). */
function assertNotInPast(expiresAt: string | undefined) {
  if (expiresAt && expiresAt < new Date().toISOString().slice(0, 10)) throw validationFailed({ expires_at: ["cannot be a date in the past"] });
}

export async function addMember(
  db: Db,
  source: MemberSource,
  actor: { id: number; role: number },
  userId: number,
  p: { access_level: number; expires_at?: string },
): Promise<MemberRow> {
  // GitLab's order: an existing member is a conflict before any other check on the new one.
  const [existing] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.sourceType, source.type), eq(members.sourceId, source.id), eq(members.userId, userId)));
  if (existing) throw conflict("Member already exists");
  assertMayGrant(actor.role, p.access_level);
  assertNotInPast(p.expires_at);
  const [row] = await db
    .insert(members)
    .values({ sourceType: source.type, sourceId: source.id, userId, accessLevel: p.access_level, expiresAt: p.expires_at ?? null, createdById: actor.id })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict("Member already exists");
  return row;
}

async function directMember(db: Db, source: MemberSource, userId: number): Promise<MemberRow> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.sourceType, source.type), eq(members.sourceId, source.id), eq(members.userId, userId)));
  if (!row) throw recordNotFound();
  return row;
}

/**
 * A group must keep at least one Owner. For a subgroup, Owners of its ancestors count too
 * (GitLab's member_owners_excluding_project_bots: members_with_parents below the root).
 */
async function assertNotLastOwner(db: Db, source: MemberSource, member: MemberRow) {
  if (source.type !== "Namespace" || member.accessLevel !== AccessLevel.OWNER) return;
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
  if (n <= 1) throw forbidden();
}

export async function updateMember(
  db: Db,
  source: MemberSource,
  actor: { id: number; role: number },
  userId: number,
  p: { access_level: number; expires_at?: string | "" },
): Promise<MemberRow> {
  const member = await directMember(db, source, userId);
  assertMayGrant(actor.role, p.access_level, member.accessLevel);
  if (p.access_level < AccessLevel.OWNER) await assertNotLastOwner(db, source, member);
  assertNotInPast(p.expires_at);
  const [row] = await db
    .update(members)
    .set({
      accessLevel: p.access_level,
      ...(p.expires_at !== undefined && { expiresAt: p.expires_at === "" ? null : p.expires_at }),
      updatedAt: new Date(),
    })
    .where(eq(members.id, member.id))
    .returning();
  return row;
}

export async function removeMember(db: Db, source: MemberSource, actor: { id: number; role: number }, userId: number): Promise<void> {
  const member = await directMember(db, source, userId);
  const leaving = actor.id === userId;
  if (!leaving) {
    if (actor.role < AccessLevel.MAINTAINER) throw forbidden();
    assertMayGrant(actor.role, member.accessLevel);
  }
  await assertNotLastOwner(db, source, member);
  await db.delete(members).where(eq(members.id, member.id));
}

/** Memberships of a deleted user disappear everywhere. */
export async function removeUserEverywhere(db: Db, userId: number): Promise<void> {
  await db.delete(members).where(eq(members.userId, userId));
}
