import { badRequest, conflict, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { invitations, members, namespaces, projects, type InvitationRow } from "../db/schema";
import { assertMayGrant, EXPIRES_IN_PAST, inPast, type Actor } from "../members/members";
import { projectWebUrl } from "../projects/project.entity";
import { namespaceWebUrl } from "../shared/namespace.entity";

/**
 * PUT /:source/invitations/:email (Members::UpdateService on an invite): access_level and/or
 * expires_at; nothing to change is a 400, a level above the caller's a 403.
 */
export async function updateInvitation(
  db: Db,
  actor: Actor,
  invite: InvitationRow,
  p: { access_level?: number; expires_at?: string; member_role_id?: number },
  levelValid: (level: number) => boolean,
): Promise<InvitationRow> {
  if (p.access_level === undefined && p.expires_at === undefined && p.member_role_id === undefined) throw badRequest();
  if (p.access_level !== undefined && !levelValid(p.access_level)) throw validationFailed({ access_level: ["is not included in the list"] });
  assertMayGrant(actor.role, p.access_level ?? invite.accessLevel, invite.accessLevel);
  if (inPast(p.expires_at)) throw validationFailed({ expires_at: [EXPIRES_IN_PAST] });
  const [row] = await db
    .update(invitations)
    .set({
      ...(p.access_level !== undefined && { accessLevel: p.access_level }),
      ...(p.expires_at !== undefined && { expiresAt: p.expires_at }),
      ...(p.member_role_id !== undefined && { memberRoleId: p.member_role_id }),
      updatedAt: new Date(),
    })
    .where(eq(invitations.id, invite.id))
    .returning();
  if (!row) throw conflict("409 Conflict");
  return row;
}

/**
 * DELETE /:source/invitations/:email: a caller may not remove an invitation above their own level
 * (403); one that is gone by the time it is removed (accepted or removed meanwhile) could not be
 * deleted although the request was valid: the spec's 409.
 */
export async function removeInvitation(db: Db, actor: Actor, invite: InvitationRow): Promise<void> {
  assertMayGrant(actor.role, invite.accessLevel);
  const gone = await db.delete(invitations).where(eq(invitations.id, invite.id)).returning({ id: invitations.id });
  if (gone.length === 0) throw conflict("409 Conflict");
}

/**
 * Turns invitations into the user's memberships (Member#accept_invite!), in one transaction: each
 * becomes a direct membership at the invitation's level and expiry, made by the inviter; a user
 * who is already a member keeps the higher of the two levels. The invitations are deleted, so a
 * repeated call (a redelivered event, a second click) changes nothing more. Answers the sources.
 */
export async function acceptInvitations(db: Db, rows: InvitationRow[], userId: number): Promise<InvitationRow[]> {
  if (rows.length === 0) return [];
  return db.transaction(async (tx) => {
    const accepted: InvitationRow[] = [];
    for (const invite of rows) {
      const [claimed] = await tx.delete(invitations).where(eq(invitations.id, invite.id)).returning();
      if (!claimed) continue; // accepted or removed meanwhile
      await tx
        .insert(members)
        .values({
          sourceType: claimed.sourceType,
          sourceId: claimed.sourceId,
          userId,
          accessLevel: claimed.accessLevel,
          expiresAt: claimed.expiresAt,
          memberRoleId: claimed.memberRoleId,
          createdById: claimed.createdById,
        })
        .onConflictDoUpdate({
          target: [members.sourceType, members.sourceId, members.userId],
          set: { accessLevel: sql`GREATEST(${members.accessLevel}, excluded.access_level)`, updatedAt: new Date() },
        });
      accepted.push(claimed);
    }
    return accepted;
  });
}

/** Every pending invitation to an address (lower-cased), whatever the source. */
export const invitationsTo = (db: Db, email: string) => db.select().from(invitations).where(eq(invitations.inviteEmail, email.toLowerCase()));

/** What an invitation's mail and page call its group or project, found without a caller. */
export async function sourceLabel(db: Db, baseUrl: string, invite: Pick<InvitationRow, "sourceType" | "sourceId">) {
  if (invite.sourceType === "Project") {
    const [row] = await db.select({ project: projects, namespace: namespaces }).from(projects).innerJoin(namespaces, eq(namespaces.id, projects.namespaceId)).where(eq(projects.id, invite.sourceId));
    if (!row) return undefined;
    return { kind: "project" as const, name: row.project.name, fullName: `${row.namespace.fullName} / ${row.project.name}`, webUrl: projectWebUrl(row.project, row.namespace, baseUrl) };
  }
  const [group] = await db.select().from(namespaces).where(and(eq(namespaces.id, invite.sourceId), eq(namespaces.kind, "group")));
  if (!group) return undefined;
  return { kind: "group" as const, name: group.name, fullName: group.fullName, webUrl: namespaceWebUrl(group, baseUrl) };
}
