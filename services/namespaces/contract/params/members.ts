import { gBool, gDate, gEnum, gInt, gIntArray, gString, paginationParams } from "@collab/core";
import { z } from "zod";

export const SOURCES = ["groups", "projects"] as const;
export type SourceKind = (typeof SOURCES)[number];

const source = { source: gEnum(SOURCES), id: gString() };

/**
 * GitLab's members API declares access_level as a bare Integer: a value no membership may hold is
 * the model's validation error (see `memberLevelErrors`), not a Grape values error.
 */
const accessLevel = gInt();

export const ListMembersParams = z.object({
  ...source,
  ...paginationParams,
  query: gString().optional(),
  user_ids: gIntArray().optional(),
  skip_users: gIntArray().optional(),
  show_seat_info: gBool().optional(),
  /** Premium and Ultimate (EE's optional_state_filter_ee); ignored on the Free tier. */
  state: gEnum(["awaiting", "active"] as const).optional(),
});
export type ListMembersParams = z.output<typeof ListMembersParams>;

export const MemberParams = z.object({ ...source, user_id: gInt() });
export type MemberParams = z.output<typeof MemberParams>;

/**
 * `user_id` (an id, or ids separated by commas) or `username` (likewise): GitLab's
 * mutually_exclusive + at_least_one_of. A list adds several members and answers like the
 * invitations API ({status: …}); one user answers the member.
 */
export const AddMemberParams = z
  .object({
    ...source,
    access_level: accessLevel,
    user_id: z.union([gInt(), gString()]).optional(),
    username: gString().optional(),
    expires_at: gDate().optional(),
    invite_source: gString().optional(),
    member_role_id: gInt().optional(),
  })
  .superRefine((v, c) => {
    if (v.user_id !== undefined && v.username !== undefined) c.addIssue({ code: "custom", path: [], message: "user_id, username are mutually exclusive" });
    else if (v.user_id === undefined && v.username === undefined)
      c.addIssue({ code: "custom", path: [], message: "user_id, username are missing, at least one parameter must be provided" });
  });
export type AddMemberParams = z.output<typeof AddMemberParams>;

export const UpdateMemberParams = z.object({
  ...source,
  user_id: gInt(),
  access_level: accessLevel,
  expires_at: gDate().optional().or(z.literal("")),
  member_role_id: gInt().optional(),
});
export type UpdateMemberParams = z.output<typeof UpdateMemberParams>;

export const RemoveMemberParams = z.object({ ...source, user_id: gInt(), skip_subresources: gBool().optional(), unassign_issuables: gBool().optional() });

/** GitLab's member_sort_options: the billable members list accepts only these (default id order). */
export const BILLABLE_SORTS = [
  "access_level_asc",
  "access_level_desc",
  "last_joined",
  "name_asc",
  "name_desc",
  "oldest_joined",
  "oldest_sign_in",
  "recent_sign_in",
  "last_activity_on_asc",
  "last_activity_on_desc",
] as const;
export type BillableSort = (typeof BILLABLE_SORTS)[number];

export const BillableMembersParams = z.object({ id: gString(), ...paginationParams, search: gString().optional(), sort: gEnum(BILLABLE_SORTS).optional() });
export type BillableMembersParams = z.output<typeof BillableMembersParams>;

export const BillableMemberParams = z.object({ id: gString(), user_id: gInt(), ...paginationParams });
export type BillableMemberParams = z.output<typeof BillableMemberParams>;

/**
 * `user_id` or `username` as given: a number, or a comma-separated list. Blanks and repeats are
 * dropped (Members::CreateService#invites_from_params: `split(',').uniq`).
 */
export function splitList(value: number | string | undefined): string[] {
  if (value === undefined) return [];
  return [...new Set(String(value).split(",").map((s) => s.trim()).filter(Boolean))];
}
