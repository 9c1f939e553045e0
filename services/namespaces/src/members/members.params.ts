import { gBool, gDate, gEnum, gIntArray, gString, paginationParams, MEMBER_ACCESS_LEVELS, gInt } from "@collab/core";
import { z } from "zod";

export const SOURCES = ["groups", "projects"] as const;
export type SourceKind = (typeof SOURCES)[number];

const accessLevel = gInt().refine((n) => (MEMBER_ACCESS_LEVELS as readonly number[]).includes(n), { error: "does not have a valid value" });
const source = { source: gEnum(SOURCES), id: gString() };

export const ListMembersParams = z.object({
  ...source,
  ...paginationParams,
  query: gString().optional(),
  user_ids: gIntArray().optional(),
  skip_users: gIntArray().optional(),
  show_seat_info: gBool().optional(),
  state: gEnum(["awaiting", "active"] as const).optional(),
});
export type ListMembersParams = z.output<typeof ListMembersParams>;

export const MemberParams = z.object({ ...source, user_id: gInt() });
export type MemberParams = z.output<typeof MemberParams>;

export const AddMemberParams = z
  .object({
    ...source,
    user_id: z.union([gInt(), gString()]).optional(),
    username: gString().optional(),
    access_level: accessLevel,
    expires_at: gDate().optional(),
    invite_source: gString().optional(),
    member_role_id: gInt().optional(),
  })
  .superRefine((v, c) => {
    if (v.user_id === undefined && v.username === undefined)
      c.addIssue({ code: "custom", path: [], message: "user_id, username are missing, exactly one parameter must be provided" });
    if (v.user_id !== undefined && v.username !== undefined) c.addIssue({ code: "custom", path: [], message: "user_id, username are mutually exclusive" });
  });
export type AddMemberParams = z.output<typeof AddMemberParams>;

export const UpdateMemberParams = z.object({ ...source, user_id: gInt(), access_level: accessLevel, expires_at: gDate().optional().or(z.literal("")), member_role_id: gInt().optional() });
export type UpdateMemberParams = z.output<typeof UpdateMemberParams>;

export const RemoveMemberParams = z.object({ ...source, user_id: gInt(), skip_subresources: gBool().optional(), unassign_issuables: gBool().optional() });
