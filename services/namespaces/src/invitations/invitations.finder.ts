import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, eq, type SQL } from "drizzle-orm";
import { invitations, type InvitationRow } from "../db/schema";
import type { MemberSource } from "../members/members.finder";

const ofSource = (source: MemberSource) => and(eq(invitations.sourceType, source.type), eq(invitations.sourceId, source.id))!;

/**
 * The pending invitations of one group or project, never its ancestors' (retrieve_member_invitations),
 * by id; `query` is one exact address (they are stored lower-cased), an empty one lists them all.
 */
export async function findInvitations(db: Db, source: MemberSource, p: { query?: string; page: number; per_page: number }): Promise<{ rows: InvitationRow[]; total: number }> {
  const where: SQL[] = [ofSource(source)];
  if (p.query) where.push(eq(invitations.inviteEmail, p.query.toLowerCase()));
  const condition = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(invitations).where(condition).orderBy(asc(invitations.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(invitations).where(condition),
  ]);
  return { rows, total };
}

export async function findInvitation(db: Db, source: MemberSource, email: string): Promise<InvitationRow | undefined> {
  const [row] = await db.select().from(invitations).where(and(ofSource(source), eq(invitations.inviteEmail, email.toLowerCase())));
  return row;
}

export async function findInvitationByDigest(db: Db, digest: string): Promise<InvitationRow | undefined> {
  const [row] = await db.select().from(invitations).where(eq(invitations.inviteTokenDigest, digest));
  return row;
}
