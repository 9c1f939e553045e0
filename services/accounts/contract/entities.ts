import type { Caller as CoreCaller, UserRef as CoreUserRef } from "@collab/core";
import { z } from "zod";
import { EMAIL_EVENTS, NOTIFICATION_LEVELS } from "./params/constants";

/** The entities the accounts service answers, over the bus and on its routes (GitLab's API entities). */

const id = () => z.number().int();

/** Who calls (ctx.meta.caller, @collab/core Caller): what authentication answers. */
export const CallerSchema = z.object({
  id: id(),
  username: z.string(),
  admin: z.boolean(),
  external: z.boolean().optional(),
  bot: z.boolean().optional(),
  deployToken: z.object({ id: id(), projectId: id().nullable(), groupId: id().nullable(), scopes: z.array(z.string()) }).optional(),
  job: z.object({ id: id(), projectId: id(), pipelineId: id() }).optional(),
});
export type Caller = z.output<typeof CallerSchema>;

/** A personal (or impersonation) access token's token: a personal access token and its user. */
/** A personal (or resource) token's caller; `expiresAt` (its expiry date, UTC) bounds how long a gateway may hold it. */
export const AuthenticationSchema = z.object({ caller: CallerSchema, scopes: z.array(z.string()), tokenId: id(), expiresAt: z.string().nullable() });
export type Authentication = z.output<typeof AuthenticationSchema>;

/** A deploy token as a caller (id 0, `deployToken` set), with its scopes. */
export const DeployTokenAuthenticationSchema = z.object({ caller: CallerSchema, scopes: z.array(z.string()), deployTokenId: id() });
export type DeployTokenAuthentication = z.output<typeof DeployTokenAuthenticationSchema>;

/** GitLab's UserBasic, as other services' presenters embed it (@collab/core UserRef). */
export const UserRefSchema = z.object({
  id: id(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  locked: z.boolean(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});
export type UserRef = z.output<typeof UserRefSchema>;

/** What namespaces needs of members for seats, billable members and invitations. */
export const MemberDetailsSchema = z.object({
  id: id(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  /** A person: not a bot, service account or other internal user. */
  human: z.boolean(),
  email: z.string(),
  public_email: z.string().nullable(),
  confirmed: z.boolean(),
  last_activity_on: z.string().nullable(),
  created_at: z.string(),
});
export type MemberDetails = z.output<typeof MemberDetailsSchema>;

/** A user whose confirmed primary address is one of those asked (lower case). */
export const VerifiedEmailOwnerSchema = z.object({ id: id(), username: z.string(), email: z.string() });
export type VerifiedEmailOwner = z.output<typeof VerifiedEmailOwnerSchema>;

/** Whether a user's profile (and so their activity) is open to others. */
export const UserProfileSchema = z.object({ id: id(), username: z.string(), state: z.string(), private_profile: z.boolean() });
export type UserProfile = z.output<typeof UserProfileSchema>;

/** A member's group_saml_identity (SCIM identity in a group with SAML SSO enabled). */
export const SamlMemberIdentitySchema = z.object({ group_id: id(), user_id: id(), extern_uid: z.string(), saml_provider_id: id() });
export type SamlMemberIdentity = z.output<typeof SamlMemberIdentitySchema>;

/** The notification level that applies to a user on a project or group, and what decided it. */
export const EffectiveNotificationLevelSchema = z.object({
  user_id: id(),
  level: z.enum(NOTIFICATION_LEVELS),
  source: z.enum(["global", "group", "project"]),
  /** The group or project id; null for the global setting. */
  source_id: id().nullable(),
  /** Every event switch of the deciding setting (they matter when the level is `custom`). */
  events: z.partialRecord(z.enum(EMAIL_EVENTS), z.boolean()),
  /** The address mail goes to. */
  notification_email: z.string(),
});
export type EffectiveNotificationLevel = z.output<typeof EffectiveNotificationLevelSchema>;

/** Entities::ServiceAccount. */
export const ServiceAccountSchema = z.object({ id: id(), username: z.string(), name: z.string(), email: z.string() });
export type ServiceAccount = z.output<typeof ServiceAccountSchema>;

/** A service account in the list. */
export const ServiceAccountSummarySchema = z.object({ id: id(), username: z.string(), name: z.string() });

/** Entities::PersonalAccessToken. */
export const AccessTokenSchema = z.object({
  id: id(),
  name: z.string(),
  description: z.string().nullable(),
  revoked: z.boolean(),
  created_at: z.string().nullable(),
  scopes: z.array(z.string()),
  user_id: id(),
  last_used_at: z.string().nullable(),
  active: z.boolean(),
  expires_at: z.string().nullable(),
  impersonation: z.literal(true).optional(),
});
export type AccessToken = z.output<typeof AccessTokenSchema>;

/** Entities::PersonalAccessTokenWithToken: only a create or rotate answer carries the secret. */
export const AccessTokenWithSecretSchema = AccessTokenSchema.extend({ token: z.string() });
export type AccessTokenWithSecret = z.output<typeof AccessTokenWithSecretSchema>;

/** A project or group access token (Entities::ResourceAccessToken): never an impersonation token. */
export const ResourceTokenSchema = AccessTokenSchema.omit({ impersonation: true }).extend({
  /** The bot's access level on the resource; null once it has no membership. */
  access_level: id().nullable(),
  resource_type: z.enum(["project", "group"]),
  resource_id: id(),
});
export type ResourceToken = z.output<typeof ResourceTokenSchema>;

/** Entities::ResourceAccessTokenWithToken: the create and rotate answers. */
export const ResourceTokenWithSecretSchema = ResourceTokenSchema.extend({ token: z.string() });
export type ResourceTokenWithSecret = z.output<typeof ResourceTokenWithSecretSchema>;

/** Entities::DeployToken: never the secret. */
export const DeployTokenSchema = z.object({
  id: id(),
  name: z.string(),
  username: z.string(),
  expires_at: z.string().nullable(),
  scopes: z.array(z.string()),
  revoked: z.boolean(),
  expired: z.boolean(),
});
export type DeployToken = z.output<typeof DeployTokenSchema>;

/** Entities::DeployTokenWithToken: the create answer, the only one with the secret. */
export const DeployTokenWithSecretSchema = DeployTokenSchema.extend({ token: z.string() });
export type DeployTokenWithSecret = z.output<typeof DeployTokenWithSecretSchema>;

/** Entities::User (UserBasic and the public profile): what anybody signed in sees of a user. */
export const UserSchema = UserRefSchema.extend({
  created_at: z.string(),
  bio: z.string(),
  location: z.string(),
  public_email: z.string().nullable(),
  linkedin: z.string(),
  twitter: z.string(),
  discord: z.string(),
  website_url: z.string(),
  organization: z.string(),
  job_title: z.string(),
  pronouns: z.string().nullable(),
  bot: z.boolean(),
  /** "<job title> at <organization>", either alone, or null without both. */
  work_information: z.string().nullable(),
  followers: z.number().int(),
  following: z.number().int(),
  is_followed: z.boolean(),
  local_time: z.null(),
});
export type User = z.output<typeof UserSchema>;

/** Entities::UserPublic: the user as they see themselves (GET /user), and the sign-up answer. */
export const UserPublicSchema = UserSchema.extend({
  last_sign_in_at: z.null(),
  confirmed_at: z.string().nullable(),
  last_activity_on: z.string().nullable(),
  email: z.string(),
  theme_id: z.number().int(),
  color_scheme_id: z.number().int(),
  projects_limit: z.number().int(),
  current_sign_in_at: z.null(),
  /** External sign-in identities (none here). */
  identities: z.array(z.object({ provider: z.string(), extern_uid: z.string() })),
  can_create_group: z.boolean(),
  can_create_project: z.boolean(),
  two_factor_enabled: z.boolean(),
  external: z.boolean(),
  private_profile: z.boolean(),
  commit_email: z.string(),
  preferred_language: z.string(),
});
export type UserPublic = z.output<typeof UserPublicSchema>;

/** Entities::UserWithAdmin: what administrators see of any user. */
export const UserWithAdminSchema = UserPublicSchema.extend({
  is_admin: z.boolean(),
  note: z.string().nullable(),
  namespace_id: z.null(),
  created_by: z.null(),
  email_reset_offered_at: z.null(),
  current_sign_in_ip: z.null(),
  last_sign_in_ip: z.null(),
  is_auditor: z.boolean(),
  using_license_seat: z.boolean(),
  provisioned_by_group_id: id().nullable(),
});
export type UserWithAdmin = z.output<typeof UserWithAdminSchema>;

/** A users API answer that is only `{"message": "Success"}` (approve, reject). */
export const MessageSchema = z.object({ message: z.string() });

/** Entities::NotificationSetting: `events` (every event of the source, on or off) only when the level is `custom`. */
export const NotificationSettingSchema = z.object({
  level: z.enum(NOTIFICATION_LEVELS),
  events: z.partialRecord(z.enum(EMAIL_EVENTS), z.boolean()).optional(),
});
export type NotificationSetting = z.output<typeof NotificationSettingSchema>;

/** Entities::GlobalNotificationSetting: the above plus the address notifications go to. */
export const GlobalNotificationSettingSchema = NotificationSettingSchema.extend({ notification_email: z.string() });
export type GlobalNotificationSetting = z.output<typeof GlobalNotificationSettingSchema>;

/** A top-level group's SAML SSO and SCIM settings (defaults, `id` null, until saved once). */
export const SamlSettingsSchema = z.object({
  id: id().nullable(),
  group_id: id(),
  enabled: z.boolean(),
  sso_url: z.string().nullable(),
  certificate_fingerprint: z.string().nullable(),
  enforced_sso: z.boolean(),
  default_membership_role: z.number().int(),
  scim_enabled: z.boolean(),
  scim_api_url: z.string(),
});
export type SamlSettings = z.output<typeof SamlSettingsSchema>;

/** ScimOauthAccessTokenEntity: the token appears in this answer only. */
export const ScimTokenSchema = z.object({ scim_api_url: z.string(), scim_token: z.string() });
export type ScimToken = z.output<typeof ScimTokenSchema>;

/** Entities::IdentityDetail of a SCIM identity (the SCIM identities API). */
export const ScimIdentitySchema = z.object({ extern_uid: z.string(), user_id: id(), active: z.boolean() });
export type ScimIdentity = z.output<typeof ScimIdentitySchema>;

/** Entities::Scim::User: the identity's extern_uid is the resource id. */
export const ScimUserSchema = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  active: z.boolean(),
  emails: z.array(z.object({ type: z.string(), value: z.string(), primary: z.boolean() })),
  /** The name's first word and the rest, null for a blank name. */
  name: z.object({ formatted: z.string(), givenName: z.string().nullable(), familyName: z.string().nullable() }),
  meta: z.object({ resourceType: z.string() }),
  userName: z.string(),
});
export type ScimUser = z.output<typeof ScimUserSchema>;

/** Entities::Scim::Users, a SCIM ListResponse. */
export const ScimUserListSchema = z.object({
  schemas: z.array(z.string()),
  totalResults: z.number().int(),
  itemsPerPage: z.number().int(),
  startIndex: z.number().int(),
  Resources: z.array(ScimUserSchema),
});
export type ScimUserList = z.output<typeof ScimUserListSchema>;

/** The contract's shapes are @collab/core's own (a drift here fails tsc). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type _CallerIsCoreCaller = Assert<Same<Caller, CoreCaller>>;
type _UserRefIsCoreUserRef = Assert<Same<UserRef, CoreUserRef>>;
