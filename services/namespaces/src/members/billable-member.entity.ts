import { accessLevelName, iso, presentUserRef } from "@collab/core";
import type { BillableMember, HierarchyMembership } from "./billable-members.finder";

/**
 * EE's Entities::BillableMember: UserBasic, the public address as `email` (the primary one for
 * administrators), activity, how the user belongs (no group sharing here: group_member or
 * project_member, always removable), is_last_owner, and last_login_at (sign-ins are not recorded).
 */
export const presentBillableMember = (m: BillableMember, baseUrl: string, opts: { admin: boolean; lastOwner: boolean }) => ({
  ...presentUserRef({ id: m.user.id, username: m.user.username, name: m.user.name, state: m.user.state }, baseUrl),
  email: opts.admin ? m.user.email : m.user.public_email,
  last_activity_on: m.user.last_activity_on,
  membership_type: m.groupMember ? "group_member" : "project_member",
  removable: true,
  created_at: m.user.created_at,
  is_last_owner: opts.lastOwner,
  last_login_at: null,
});

/** EE's Entities::BillableMembership: one direct membership of the user in the hierarchy. */
export const presentBillableMembership = (m: HierarchyMembership, baseUrl: string) => ({
  id: m.id,
  source_id: m.sourceId,
  source_full_name: m.sourceFullName,
  source_members_url: `${baseUrl}/${m.sourceType === "Namespace" ? `groups/${m.sourceFullPath}/-/group_members` : `${m.sourceFullPath}/-/project_members`}`,
  created_at: iso(m.createdAt),
  expires_at: m.expiresAt,
  access_level: {
    string_value: accessLevelName(m.accessLevel),
    integer_value: m.accessLevel,
    custom_role: m.memberRoleId === null ? null : { id: m.memberRoleId, name: null },
  },
});
