import { Accounts } from "@collab/accounts-contract";
import { AccessLevel, call, callerOf, iso, type Ctx, type UserRef } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { namespaces, type MemberRow } from "../db/schema";
import { groupAccessLevel } from "./access";

type Membership = Pick<MemberRow, "accessLevel" | "expiresAt" | "createdAt" | "memberRoleId">;

/** Entities::Identity (EE) of a member's group SAML identity. */
export interface GroupSamlIdentity {
  extern_uid: string;
  provider: "group_saml";
  saml_provider_id: number;
}

export interface MemberExtras {
  /** show_seat_info: whether the user takes a paid seat (EE's is_using_seat). */
  usingSeat?: boolean;
  /** The member's group SAML identity, when the viewer may see it (see groupSamlIdentities). */
  groupSamlIdentity?: GroupSamlIdentity | null;
}

/** The custom role part (Ultimate): only the id is known, there is no member roles table. */
const memberRole = (m: Membership) => (m.memberRoleId === null ? {} : { member_role: { id: m.memberRoleId, base_access_level: m.accessLevel } });

/**
 * GitLab's Entities::Member. `email` is shown by GitLab only to group Owners for enterprise users
 * of the group; there are no enterprise users here, so it never is.
 */
export const presentMember = (m: Membership, user: UserRef, createdBy: UserRef | null, extras: MemberExtras = {}) => ({
  id: user.id,
  username: user.username,
  name: user.name,
  state: user.state,
  locked: user.locked,
  avatar_url: user.avatar_url,
  web_url: user.web_url,
  access_level: m.accessLevel,
  created_at: iso(m.createdAt),
  created_by: createdBy,
  expires_at: m.expiresAt,
  group_saml_identity: extras.groupSamlIdentity ?? null,
  membership_state: "active",
  ...memberRole(m),
  ...(extras.usingSeat !== undefined && { is_using_seat: extras.usingSeat }),
});

/**
 * A pending invitation in /members/all: a member row without a user, as GitLab renders an invited
 * member (no user fields), with the address it was sent to.
 */
export const presentInvitedMember = (m: Membership & { inviteEmail: string | null }, createdBy: UserRef | null, extras: MemberExtras = {}) => ({
  id: null,
  username: null,
  name: null,
  state: null,
  locked: null,
  avatar_url: null,
  web_url: null,
  access_level: m.accessLevel,
  created_at: iso(m.createdAt),
  created_by: createdBy,
  expires_at: m.expiresAt,
  group_saml_identity: null,
  membership_state: "active",
  invite_email: m.inviteEmail,
  ...memberRole(m),
  ...(extras.usingSeat !== undefined && { is_using_seat: false }),
});

const identityKey = (groupId: number, userId: number) => `${groupId}:${userId}`;

/**
 * `group_saml_identity` of each membership row, keyed by `identitySlot(row)`: GitLab's
 * `read_group_saml_identity` — shown when the membership's own source is a group with SAML SSO
 * enabled (only top-level groups have it) and the viewer owns that group (administrators count as
 * Owners); null otherwise, project memberships included. The identities live in the accounts
 * service, asked once per page and only for groups the viewer owns, so other viewers cost nothing.
 */
export async function groupSamlIdentities(db: Db, ctx: Ctx<unknown>, rows: Pick<MemberRow, "sourceType" | "sourceId" | "userId">[]): Promise<Map<string, GroupSamlIdentity>> {
  const found = new Map<string, GroupSamlIdentity>();
  const caller = callerOf(ctx);
  const groupIds = [...new Set(rows.filter((r) => r.sourceType === "Namespace").map((r) => r.sourceId))];
  if (!caller || groupIds.length === 0) return found;
  const roots = await db
    .select()
    .from(namespaces)
    .where(and(inArray(namespaces.id, groupIds), eq(namespaces.kind, "group"), isNull(namespaces.parentId)));
  const owned: number[] = [];
  for (const group of roots) if (caller.admin || (await groupAccessLevel(db, group, caller.id)) >= AccessLevel.OWNER) owned.push(group.id);
  if (owned.length === 0) return found;
  const userIds = [...new Set(rows.filter((r) => owned.includes(r.sourceId)).map((r) => r.userId))];
  const identities = await call(ctx, Accounts.saml.memberIdentities, { group_ids: owned, user_ids: userIds });
  for (const i of identities) found.set(identityKey(i.group_id, i.user_id), { extern_uid: i.extern_uid, provider: "group_saml", saml_provider_id: i.saml_provider_id });
  return found;
}

/** The key of a membership row in groupSamlIdentities' answer. */
export const identitySlot = (row: Pick<MemberRow, "sourceType" | "sourceId" | "userId">) =>
  row.sourceType === "Namespace" ? identityKey(row.sourceId, row.userId) : "";
