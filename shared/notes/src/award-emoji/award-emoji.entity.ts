import { iso, type UserRef } from "@collab/core";
import type { AwardEmoji } from "@collab/notes-contract";
import type { AwardEmojiRow } from "../db/tables";

/** GitLab's AwardEmoji entity (url: custom emoji only, none here). */
export const presentAward = (a: AwardEmojiRow, users: Map<number, UserRef>): AwardEmoji => ({
  id: a.id,
  name: a.name,
  user: users.get(a.userId) ?? null,
  created_at: iso(a.createdAt),
  updated_at: iso(a.updatedAt),
  awardable_id: a.awardableId,
  awardable_type: a.awardableType,
  url: null,
});
