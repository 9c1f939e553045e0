import type { Db } from "@collab/db";
import { and, asc, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { users, type UserRow } from "../db/schema";
import { groupSamlProviders, groupScimIdentities, groupScimTokens, type ScimIdentityRow } from "../db/saml.schema";
import type { ScimFilter } from "./scim-filter";

/** Group SCIM identities: reads (GroupScimFinder) and writes, with ScimIdentity's validations. */

const sameUid = (externUid: string) => sql`lower(${groupScimIdentities.externUid}) = lower(${externUid})`;

/** `group.scim_identities.with_extern_uid(uid).first`: extern_uid compared case-insensitively. */
export async function findIdentity(db: Db, groupId: number, externUid: string): Promise<ScimIdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(groupScimIdentities)
    .where(and(eq(groupScimIdentities.groupId, groupId), sameUid(externUid)));
  return row;
}

/** The identity with its user (a SCIM User resource), or undefined. */
export async function findIdentityWithUser(db: Db, groupId: number, externUid: string): Promise<{ identity: ScimIdentityRow; user: UserRow } | undefined> {
  const [row] = await db
    .select({ identity: groupScimIdentities, user: users })
    .from(groupScimIdentities)
    .innerJoin(users, eq(users.id, groupScimIdentities.userId))
    .where(and(eq(groupScimIdentities.groupId, groupId), sameUid(externUid)));
  return row;
}

/** An identity by its row id, with its user. */
export async function identityWithUserById(db: Db, identityId: number): Promise<{ identity: ScimIdentityRow; user: UserRow } | undefined> {
  const [row] = await db
    .select({ identity: groupScimIdentities, user: users })
    .from(groupScimIdentities)
    .innerJoin(users, eq(users.id, groupScimIdentities.userId))
    .where(eq(groupScimIdentities.id, identityId));
  return row;
}

/** Every SCIM identity of the group, oldest first (the SCIM identities API lists them all). */
export async function groupIdentities(db: Db, groupId: number): Promise<ScimIdentityRow[]> {
  return db.select().from(groupScimIdentities).where(eq(groupScimIdentities.groupId, groupId)).orderBy(asc(groupScimIdentities.id));
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * GroupScimFinder#by_username: the identity whose extern_uid is the value; else the user with that
 * username, or — for an e-mail address — with that e-mail, or whose username is its local part.
 */
async function usernameCondition(db: Db, groupId: number, value: string): Promise<SQL> {
  const byUid = await findIdentity(db, groupId, value);
  if (byUid) return eq(groupScimIdentities.id, byUid.id);
  let [user] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${value})`);
  if (!user && EMAIL.test(value)) {
    [user] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${value})`);
    user ??= (await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${value.split("@")[0]})`))[0];
  }
  return user ? eq(groupScimIdentities.userId, user.id) : sql`false`;
}

/** GET /Users: the group's identities (with users) the filter selects, a page of them and their count. */
export async function searchIdentities(
  db: Db,
  groupId: number,
  filter: ScimFilter | null,
  page: { offset: number; count: number },
): Promise<{ rows: { identity: ScimIdentityRow; user: UserRow }[]; total: number }> {
  const conditions: SQL[] = [eq(groupScimIdentities.groupId, groupId)];
  if (filter?.attribute === "extern_uid") conditions.push(sameUid(filter.value));
  if (filter?.attribute === "username") conditions.push(await usernameCondition(db, groupId, filter.value));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ identity: groupScimIdentities, user: users })
      .from(groupScimIdentities)
      .innerJoin(users, eq(users.id, groupScimIdentities.userId))
      .where(where)
      .orderBy(asc(groupScimIdentities.id))
      .limit(page.count)
      .offset(page.offset),
    db.select({ total: count() }).from(groupScimIdentities).where(where),
  ]);
  return { rows, total };
}

/** What ScimIdentity's validations refuse, as Rails' full message ("Extern uid has already been taken"). */
export class IdentityRejected extends Error {}

/** An extern_uid's presence and length (the column is indexed, so its length is bounded). */
export const EXTERN_UID_MAX = 255;
function checkExternUid(externUid: string) {
  if (externUid.trim() === "") throw new IdentityRejected("Extern uid can't be blank");
  if (externUid.length > EXTERN_UID_MAX) throw new IdentityRejected(`Extern uid is too long (maximum is ${EXTERN_UID_MAX} characters)`);
}

function uniqueViolation(err: unknown): never {
  const e = ((err as { cause?: unknown })?.cause ?? err) as { code?: string; constraint?: string; message?: string };
  const text = `${e.constraint ?? ""} ${e.message ?? ""}`;
  if (e.code === "23505" && text.includes("group_scim_identities_uid_idx")) throw new IdentityRejected("Extern uid has already been taken");
  if (e.code === "23505" && text.includes("group_scim_identities_user_idx")) throw new IdentityRejected("User has already been taken");
  throw err;
}

export async function createIdentity(db: Db, p: { groupId: number; userId: number; externUid: string }): Promise<ScimIdentityRow> {
  checkExternUid(p.externUid);
  try {
    const [row] = await db.insert(groupScimIdentities).values({ groupId: p.groupId, userId: p.userId, externUid: p.externUid, active: true }).returning();
    return row;
  } catch (err) {
    uniqueViolation(err);
  }
}

/** A new extern_uid: IdentityRejected when blank, too long, or another identity of the group has it. */
export async function changeExternUid(db: Db, identity: ScimIdentityRow, externUid: string): Promise<ScimIdentityRow> {
  checkExternUid(externUid);
  try {
    const [row] = await db
      .update(groupScimIdentities)
      .set({ externUid, updatedAt: new Date() })
      .where(eq(groupScimIdentities.id, identity.id))
      .returning();
    return row ?? identity;
  } catch (err) {
    uniqueViolation(err);
  }
}

export async function setIdentityActive(db: Db, identityId: number, active: boolean): Promise<void> {
  await db.update(groupScimIdentities).set({ active, updatedAt: new Date() }).where(eq(groupScimIdentities.id, identityId));
}

export async function deleteIdentity(db: Db, identityId: number): Promise<void> {
  await db.delete(groupScimIdentities).where(eq(groupScimIdentities.id, identityId));
}

/** The identities of these users in these groups (members' group_saml_identity). */
export async function identitiesOf(db: Db, groupIds: number[], userIds: number[]) {
  if (groupIds.length === 0 || userIds.length === 0) return [];
  return db
    .select({ groupId: groupScimIdentities.groupId, userId: groupScimIdentities.userId, externUid: groupScimIdentities.externUid, samlProviderId: groupSamlProviders.id })
    .from(groupScimIdentities)
    .innerJoin(groupSamlProviders, and(eq(groupSamlProviders.groupId, groupScimIdentities.groupId), eq(groupSamlProviders.enabled, true)))
    .where(and(inArray(groupScimIdentities.groupId, groupIds), inArray(groupScimIdentities.userId, userIds)));
}

/**
 * A group removed for good takes its SAML settings, SCIM token and identities with it: one
 * transaction, idempotent (a repeated event finds nothing). Answers the rows removed.
 */
export async function removeGroupsSamlData(db: Db, groupIds: number[]): Promise<number> {
  if (groupIds.length === 0) return 0;
  return db.transaction(async (tx) => {
    const identities = await tx.delete(groupScimIdentities).where(inArray(groupScimIdentities.groupId, groupIds)).returning({ id: groupScimIdentities.id });
    const tokens = await tx.delete(groupScimTokens).where(inArray(groupScimTokens.groupId, groupIds)).returning({ id: groupScimTokens.id });
    const providers = await tx.delete(groupSamlProviders).where(inArray(groupSamlProviders.groupId, groupIds)).returning({ id: groupSamlProviders.id });
    return identities.length + tokens.length + providers.length;
  });
}
