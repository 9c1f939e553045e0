import { gBool, gDateTime, gEnum, gId, gIntArray, gString, paginationParams } from "@collab/core";
import { z } from "zod";

export const THEMES = ["indigo", "light-indigo", "blue", "light-blue", "green", "light-green", "red", "light-red", "dark", "light"] as const;
export const BROADCAST_TYPES = ["banner", "notification"] as const;
/** BroadcastMessage::ALLOWED_TARGET_ACCESS_LEVELS */
export const TARGET_ACCESS_LEVELS = [10, 15, 20, 30, 40, 50];

const fields = {
  starts_at: gDateTime().optional(),
  ends_at: gDateTime().optional(),
  /** Removed in 15.6: accepted and ignored. */
  color: gString().optional(),
  font: gString().optional(),
  target_access_levels: gIntArray()
    .refine((levels) => levels.every((l) => TARGET_ACCESS_LEVELS.includes(l)), { error: "does not have a valid value" })
    .optional(),
  target_path: gString().optional(),
  broadcast_type: gEnum(BROADCAST_TYPES).optional(),
  dismissable: gBool().optional(),
  theme: gEnum(THEMES).optional(),
};

export const CreateBroadcastParams = z.object({ message: gString(), ...fields });
export type CreateBroadcastParams = z.output<typeof CreateBroadcastParams>;
export const UpdateBroadcastParams = z.object({ id: gId(), message: gString().optional(), ...fields });
export type UpdateBroadcastParams = z.output<typeof UpdateBroadcastParams>;
export const BroadcastIdParams = z.object({ id: gId() });
export const ListBroadcastParams = z.object({ ...paginationParams });
