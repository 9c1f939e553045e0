import { accessTokenListParams, actionContract, pageOf, gArray, gDate, gEnum, gString, paginationParams, UserLimitsAction, type Caller as CoreCaller, type UserRef as CoreUserRef } from "@collab/core";
import { z } from "zod";

/** Personal access token scopes GitLab knows (the service's routes and token actions take these). */
export const PAT_SCOPES = [
  "api",
  "read_api",
  "read_user",
  "read_repository",
  "write_repository",
  "read_registry",
  "write_registry",
  "sudo",
  "admin_mode",
  "create_runner",
  "manage_runner",
  "k8s_proxy",
  "ai_features",
  "read_service_ping",
  "self_rotate",
] as const;

/** GitLab's NotificationSetting levels. */
export const NOTIFICATION_LEVELS = ["disabled", "participating", "watch", "global", "mention", "custom"] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/**
 * The email events a `custom` level switches one by one, in GitLab's order. `new_epic` is the
 * Ultimate tier's, and only where epics live: the global setting and groups, never projects.
 */
export const EMAIL_EVENTS = [
  "new_note",
  "new_issue",
  "reopen_issue",
  "close_issue",
  "reassign_issue",
  "issue_due",
  "new_merge_request",
  "push_to_merge_request",
  "reopen_merge_request",
  "close_merge_request",
  "reassign_merge_request",
  "merge_merge_request",
  "failed_pipeline",
  "fixed_pipeline",
  "success_pipeline",
  "moved_project",
  "merge_when_pipeline_succeeds",
  "new_epic",
] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number];

/** A page of a list as services answer it (@collab/core `page()`): the gateway renders the headers. */

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
export const AuthenticationSchema = z.object({ caller: CallerSchema, scopes: z.array(z.string()), tokenId: id() });
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

const ids = (max: number) => z.array(id()).max(max);

/** Actions of the accounts service other services call (see index.ts), by their names. */
export const AccountsActions = {
  /** Token → caller, for the gateway. 401 bodies follow GitLab's expired/revoked wording. */
  authenticate: actionContract("accounts.authenticate", {
    input: () => z.object({ token: z.string().min(1) }),
    output: () => AuthenticationSchema,
  }),

  /**
   * The caller a CI/CD job token stands for: the job's user, who must still be able to sign in
   * (401 for an unknown user; a blocked one is refused as at sign-in).
   */
  jobCaller: actionContract("accounts.jobCaller", {
    input: () => z.object({ user_id: id() }),
    output: () => CallerSchema,
  }),

  /** The Sudo header's target (an id or a username), for admins; 404 for nobody. */
  resolveSudo: actionContract("accounts.resolveSudo", {
    input: () => z.object({ ref: z.string().min(1) }),
    output: () => CallerSchema,
    idempotent: true,
  }),

  /** Recreates root after a wipe (tests); a no-op when users exist. */
  bootstrap: actionContract("accounts.bootstrap", {
    input: () => z.object({ token: z.string().min(8) }),
    output: () => z.object({ created: z.boolean() }),
  }),

  users: {
    /** Batch user refs for other services' presenters: one call per page, never per row. */
    refs: actionContract("accounts.users.refs", {
      input: () => z.object({ ids: ids(1000).default([]), usernames: z.array(z.string()).max(1000).default([]) }),
      output: () => z.array(UserRefSchema),
      idempotent: true,
    }),

    /** Which of these users match a members-list `query` (name, username or email): their ids. */
    match: actionContract("accounts.users.match", {
      input: () => z.object({ ids: ids(100_000), query: z.string() }),
      output: () => z.array(id()),
      idempotent: true,
    }),

    /** What the namespaces service needs of members (state, whether a person, e-mail addresses, activity). */
    memberDetails: actionContract("accounts.users.memberDetails", {
      input: () => z.object({ ids: ids(100_000) }),
      output: () => z.array(MemberDetailsSchema),
      idempotent: true,
    }),

    /** The users whose confirmed primary address is one of `emails` (case-insensitive). */
    byVerifiedEmails: actionContract("accounts.users.byVerifiedEmails", {
      input: () => z.object({ emails: z.array(z.string()).max(1000) }),
      output: () => z.array(VerifiedEmailOwnerSchema),
      idempotent: true,
    }),

    /** What the user may create, read at creation time (declared in @collab/core, which asks it). */
    limits: UserLimitsAction,

    /**
     * GitLab's user_type of each user (human, service_account, project_bot, group_bot), by user id:
     * the caller's `bot` flag is also set for service accounts, so resource-token bots are told apart here.
     */
    types: actionContract("accounts.users.types", {
      input: () => z.object({ ids: ids(1000) }),
      output: () => z.record(z.string(), z.string()),
      idempotent: true,
    }),

    /** Whether the password is the user's (re-authentication to approve); false for users without one. */
    verifyPassword: actionContract("accounts.users.verifyPassword", {
      input: () => z.object({ user_id: id(), password: z.string().max(1024) }),
      output: () => z.boolean(),
    }),

    /** A user by id or username with their state and private_profile flag, or null. */
    profile: actionContract("accounts.users.profile", {
      input: () => z.object({ ref: z.union([z.string(), z.number()]) }),
      output: () => UserProfileSchema.nullable(),
      idempotent: true,
    }),
  },

  /**
   * Service accounts (bot users of user_type service_account), behind the admin service's
   * endpoints: it decides who may call them and where they exist. `group_id` null is the instance.
   */
  serviceAccounts: {
    create: actionContract("accounts.serviceAccounts.create", {
      input: () =>
        z.object({
          name: gString().default("Service account user"),
          username: gString().optional(),
          email: gString().optional(),
          group_id: id().nullable().default(null),
          created_by_id: id(),
        }),
      output: () => ServiceAccountSchema,
    }),

    /** Blank values are dropped; errors are the update service's 400 {"message": "..."}. */
    update: actionContract("accounts.serviceAccounts.update", {
      input: () =>
        z.object({
          user_id: id(),
          group_id: id().nullable().default(null),
          name: gString().optional(),
          username: gString().optional(),
          email: gString().optional(),
        }),
      output: () => ServiceAccountSchema,
    }),

    list: actionContract("accounts.serviceAccounts.list", {
      input: () =>
        z.object({
          ...paginationParams,
          group_id: id().nullable().default(null),
          order_by: gEnum(["id", "username"] as const).default("id"),
          sort: gEnum(["asc", "desc"] as const).default("desc"),
        }),
      output: () => pageOf(ServiceAccountSummarySchema),
      idempotent: true,
    }),

    /** A group's service account and its memberships go (answers null). */
    delete: actionContract("accounts.serviceAccounts.delete", {
      input: () => z.object({ user_id: id(), group_id: id() }),
      output: () => z.null(),
    }),

    /** A group's service account's tokens (access_token_params filters). */
    listTokens: actionContract("accounts.serviceAccounts.listTokens", {
      input: () => z.object({ ...accessTokenListParams, user_id: id(), group_id: id() }),
      output: () => pageOf(AccessTokenSchema),
      idempotent: true,
    }),

    createToken: actionContract("accounts.serviceAccounts.createToken", {
      input: () =>
        z.object({
          user_id: id(),
          group_id: id(),
          name: gString().refine((s) => s.trim() !== "", { error: "is empty" }),
          description: gString().optional(),
          scopes: gArray(gEnum(PAT_SCOPES)).refine((s) => s.length > 0, { error: "is empty" }),
          expires_at: gDate().optional(),
        }),
      output: () => AccessTokenWithSecretSchema,
    }),

    /** The new token (secret included); a token of somebody else or none is 404, a revoked one 400. */
    rotateToken: actionContract("accounts.serviceAccounts.rotateToken", {
      input: () => z.object({ user_id: id(), group_id: id(), token_id: id(), expires_at: gDate().optional() }),
      output: () => AccessTokenWithSecretSchema,
    }),

    /** Answers null (204). */
    revokeToken: actionContract("accounts.serviceAccounts.revokeToken", {
      input: () => z.object({ user_id: id(), group_id: id(), token_id: id() }),
      output: () => z.null(),
    }),
  },

  deployTokens: {
    /** The gateway's lookup of a `Deploy-Token` header or HTTP Basic credentials (username given). */
    authenticate: actionContract("accounts.deployTokens.authenticate", {
      input: () => z.object({ token: z.string().min(1), username: z.string().optional() }),
      output: () => DeployTokenAuthenticationSchema,
    }),
  },

  saml: {
    /**
     * For the members API: the SCIM identities of these users in those of these groups that have
     * SAML SSO enabled (a member's group_saml_identity). The caller decides who may see them.
     */
    memberIdentities: actionContract("accounts.saml.memberIdentities", {
      input: () => z.object({ group_ids: ids(1000), user_ids: ids(10_000) }),
      output: () => z.array(SamlMemberIdentitySchema),
      idempotent: true,
    }),
  },

  scim: {
    /** The gateway's question for `auth: "scim"` routes: whose SCIM token is this? `group_id` null if nobody's. */
    authenticate: actionContract("accounts.scim.authenticate", {
      input: () => z.object({ token: z.string().min(1) }),
      output: () => z.object({ group_id: id().nullable() }),
    }),
  },

  notifications: {
    /**
     * For mail features: the level that applies to each of these users on a project or group,
     * following `global` up the groups to the user's global setting. `group_ids` are the source's
     * groups from the top-level one down; a project's setting is read when `project_id` is given.
     * Unknown users are left out.
     */
    effectiveLevel: actionContract("accounts.notifications.effectiveLevel", {
      input: () =>
        z.object({
          user_ids: z.array(id().positive()).min(1).max(1000),
          project_id: id().positive().optional(),
          group_ids: z.array(id().positive()).max(100).default([]),
        }),
      output: () => z.array(EffectiveNotificationLevelSchema),
      idempotent: true,
    }),
  },
};

/** The contract's shapes are @collab/core's own (a drift here fails tsc). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type _CallerIsCoreCaller = Assert<Same<Caller, CoreCaller>>;
type _UserRefIsCoreUserRef = Assert<Same<UserRef, CoreUserRef>>;
