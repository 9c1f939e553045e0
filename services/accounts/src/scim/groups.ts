import { call, AccessLevel, forbidden, notFound, requireCaller, type Ctx, type OutputOf } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * Groups and memberships live in the namespaces service: accounts asks it, through its bus
 * actions, for the group a route names and to grant or revoke SCIM-provisioned memberships.
 */
export type GroupSummary = NonNullable<OutputOf<typeof Namespaces.provisioning.group>>;

/**
 * The group of a /api/v4 SAML or SCIM route, for its Owners (administrators too): 404 Group Not
 * Found when the caller may not see it, 403 for other members (authorize_admin_group).
 */
export async function ownedGroup(ctx: Ctx<unknown>, ref: string): Promise<GroupSummary> {
  requireCaller(ctx);
  const g = await call(ctx, Namespaces.access.group, { group: ref });
  if (g.role < AccessLevel.OWNER) throw forbidden();
  return { id: g.group.id, name: g.group.name, full_path: g.group.full_path, parent_id: g.group.parent_id };
}

/** SAML SSO and SCIM are set on top-level groups only; elsewhere the settings pages are a 404. */
export function requireTopLevel(group: GroupSummary) {
  if (group.parent_id !== null) throw notFound();
}

/** The group a SCIM URL names (id or full path), whoever may see it; null when there is none. */
export const scimGroup = (ctx: Ctx<unknown>, path: string) => call(ctx, Namespaces.provisioning.group, { group: path });

/** A direct membership at `accessLevel` unless the user is a member already: whether one was added. */
export async function grantMembership(ctx: Ctx<unknown>, groupId: number, userId: number, accessLevel: number): Promise<boolean> {
  const { added } = await call(ctx, Namespaces.provisioning.addMember, { group_id: groupId, user_id: userId, access_level: accessLevel });
  return added;
}

/** The user's memberships of the group and below go, unless they are its last Owner. */
export async function revokeMembership(ctx: Ctx<unknown>, groupId: number, userId: number): Promise<"removed" | "not_member" | "last_owner"> {
  const { outcome } = await call(ctx, Namespaces.provisioning.removeMember, { group_id: groupId, user_id: userId });
  return outcome;
}
