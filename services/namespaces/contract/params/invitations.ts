import { atLeastOneOf, gDateTime, gEnum, gInt, gString, MEMBER_ACCESS_LEVELS, paginationParams } from "@collab/core";
import { z } from "zod";
import { SOURCES } from "./members";

const source = { source: gEnum(SOURCES), id: gString() };

/** Grape's `values: Gitlab::Access.all_values` on the invitations API: 0, 5, 10, 15, 20, 30, 40, 50. */
const accessLevel = () => gInt().refine((n) => (MEMBER_ACCESS_LEVELS as readonly number[]).includes(n), { error: "does not have a valid value" });

/** A DateTime param kept as the date a membership expires on (UTC). */
const expiryDate = () => gDateTime().transform((d) => d.toISOString().slice(0, 10));

export const CreateInvitationsParams = z
  .object({
    ...source,
    access_level: accessLevel(),
    /** One address, addresses separated by commas, or an array of them. */
    email: z.union([gString(), z.array(gString())]).optional(),
    /** One user id, or ids separated by commas. */
    user_id: z.union([gInt(), gString()]).optional(),
    expires_at: expiryDate().optional(),
    invite_source: gString().optional(),
    member_role_id: gInt().optional(),
  })
  .superRefine(atLeastOneOf("email", "user_id"));
export type CreateInvitationsParams = z.output<typeof CreateInvitationsParams>;

export const ListInvitationsParams = z.object({ ...source, ...paginationParams, query: gString().optional() });
export type ListInvitationsParams = z.output<typeof ListInvitationsParams>;

export const InvitationParams = z.object({ ...source, email: gString() });

export const UpdateInvitationParams = z.object({
  ...source,
  email: gString(),
  access_level: accessLevel().optional(),
  expires_at: expiryDate().optional(),
  member_role_id: gInt().optional(),
});
export type UpdateInvitationParams = z.output<typeof UpdateInvitationParams>;

export const InviteTokenParams = z.object({ token: gString() });

/** The addresses of `email`: comma-separated or an array, trimmed, blanks dropped. */
export function emailList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value.flatMap((v) => v.split(",")) : value.split(",");
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}
