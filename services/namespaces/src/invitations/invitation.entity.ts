import { iso } from "@collab/core";
import type { InvitationRow } from "../db/schema";

/** GitLab's Entities::Invitation. A pending invitation has no user yet, so user_name is null. */
export const presentInvitation = (i: InvitationRow, createdByName: string | null) => ({
  id: i.id,
  invite_email: i.inviteEmail,
  created_at: iso(i.createdAt),
  access_level: i.accessLevel,
  expires_at: i.expiresAt,
  user_name: null,
  created_by_name: createdByName,
});
