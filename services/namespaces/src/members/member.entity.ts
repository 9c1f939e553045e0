import { iso, type UserRef } from "@collab/core";
import type { MemberRow } from "../db/schema";

export const presentMember = (m: Pick<MemberRow, "accessLevel" | "expiresAt" | "createdAt">, user: UserRef, createdBy: UserRef | null) => ({
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
  group_saml_identity: null,
  membership_state: "active",
});
