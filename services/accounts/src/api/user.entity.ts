import type { User, UserPublic, UserWithAdmin } from "@collab/accounts-contract";
import { iso, presentUserRef, type UserRef } from "@collab/core";
import type { UserRow } from "../db/schema";

/** GitLab's entity ladder: UserBasic ⊂ User ⊂ UserPublic ⊂ UserWithAdmin. */
export const presentUserBasic = (u: UserRow, baseUrl: string): UserRef =>
  presentUserRef({ id: u.id, username: u.username, name: u.name, state: u.state }, baseUrl);

export const presentUser = (u: UserRow, baseUrl: string): User => ({
  ...presentUserBasic(u, baseUrl),
  created_at: u.createdAt.toISOString(),
  bio: u.bio,
  location: u.location,
  public_email: u.publicEmail,
  linkedin: u.linkedin,
  twitter: u.twitter,
  discord: u.discord,
  website_url: u.websiteUrl,
  organization: u.organization,
  job_title: u.jobTitle,
  pronouns: u.pronouns,
  bot: u.bot,
  work_information: u.organization || u.jobTitle ? [u.jobTitle, u.organization].filter(Boolean).join(" at ") : null,
  followers: 0,
  following: 0,
  is_followed: false,
  local_time: null,
});

export const presentUserPublic = (u: UserRow, baseUrl: string): UserPublic => ({
  ...presentUser(u, baseUrl),
  last_sign_in_at: null,
  confirmed_at: iso(u.confirmedAt),
  last_activity_on: u.lastActivityOn,
  email: u.email,
  theme_id: 1,
  color_scheme_id: 1,
  projects_limit: u.projectsLimit,
  current_sign_in_at: null,
  identities: [],
  can_create_group: u.canCreateGroup,
  can_create_project: u.projectsLimit > 0,
  two_factor_enabled: false,
  external: u.external,
  private_profile: u.privateProfile,
  commit_email: u.email,
  preferred_language: "en",
});

export const presentUserWithAdmin = (u: UserRow, baseUrl: string): UserWithAdmin => ({
  ...presentUserPublic(u, baseUrl),
  is_admin: u.admin,
  note: u.note,
  namespace_id: null,
  created_by: null,
  email_reset_offered_at: null,
  current_sign_in_ip: null,
  last_sign_in_ip: null,
  is_auditor: false,
  using_license_seat: u.userType === "human" && u.state === "active",
  provisioned_by_group_id: u.provisionedByGroupId,
});
