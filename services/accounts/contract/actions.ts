import { accessTokenListParams, actionContract, noContent, pageOf, gArray, gDate, gEnum, gString, paginationParams, UserLimitsAction } from "@collab/core";
import { z } from "zod";
import { PAT_SCOPES } from "./params/constants";
import {
  AccessTokenSchema,
  AccessTokenWithSecretSchema,
  AuthenticationSchema,
  CallerSchema,
  DeployTokenAuthenticationSchema,
  DeployTokenSchema,
  DeployTokenWithSecretSchema,
  EffectiveNotificationLevelSchema,
  GlobalNotificationSettingSchema,
  MemberDetailsSchema,
  MessageSchema,
  NotificationSettingSchema,
  ResourceTokenSchema,
  ResourceTokenWithSecretSchema,
  SamlMemberIdentitySchema,
  SamlSettingsSchema,
  ScimIdentitySchema,
  ScimTokenSchema,
  ScimUserListSchema,
  ScimUserSchema,
  ServiceAccountSchema,
  ServiceAccountSummarySchema,
  UserProfileSchema,
  UserPublicSchema,
  UserRefSchema,
  UserSchema,
  UserWithAdminSchema,
  VerifiedEmailOwnerSchema,
} from "./entities";
import { CreateDeployTokenParams, DeployTokenParams, ListAllDeployTokensParams, ListDeployTokensParams } from "./params/deploy-tokens";
import { SourceSettingParams, UpdateGlobalSettingParams, UpdateSourceSettingParams } from "./params/notification-settings";
import { CreateResourceTokenParams, ListResourceTokensParams, ResourceTokenParams, RotateResourceTokenParams, SelfRotateResourceTokenParams } from "./params/resource-tokens";
import { SamlGroupParams, ScimCreateParams, ScimIdentityParams, ScimListParams, ScimPatchParams, ScimReplaceParams, ScimUserParams, UpdateSamlParams, UpdateScimIdentityParams } from "./params/scim";
import { CreateOwnTokenParams, CreateTokenParams, ListTokensParams, RotateSelfTokenParams, TokenIdParams } from "./params/tokens";
import { CreateUserParams, ListUsersParams, SetUserStateParams, SignUpParams, UpdateUserParams, UserIdParams } from "./params/users";

const id = () => z.number().int();
const ids = (max: number) => z.array(id()).max(max);

/**
 * Actions of the accounts service by their names: those other services call (see index.ts) and
 * those behind its routes (routes.ts), each with its input and the answer it gives.
 */
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

    /** GET /users: administrators see UserWithAdmin, others (anonymous callers by username only) UserBasic. */
    list: actionContract("accounts.users.list", {
      input: () => ListUsersParams,
      output: () => pageOf(z.union([UserWithAdminSchema, UserRefSchema])),
      idempotent: true,
    }),

    /** GET /users/:id: UserWithAdmin for administrators, User for others. */
    get: actionContract("accounts.users.get", {
      input: () => UserIdParams,
      output: () => z.union([UserWithAdminSchema, UserSchema]),
      idempotent: true,
    }),

    /** GET /user: the caller, UserWithAdmin for administrators, UserPublic for others. */
    current: actionContract("accounts.users.current", {
      input: () => z.object({}),
      output: () => z.union([UserWithAdminSchema, UserPublicSchema]),
      idempotent: true,
    }),

    create: actionContract("accounts.users.create", {
      input: () => CreateUserParams,
      output: () => UserWithAdminSchema,
    }),

    update: actionContract("accounts.users.update", {
      input: () => UpdateUserParams,
      output: () => UserWithAdminSchema,
    }),

    delete: actionContract("accounts.users.delete", {
      input: () => UserIdParams,
      output: () => noContent(),
    }),

    /** Users::ApproveService: 201 {"message": "Success"}. */
    approve: actionContract("accounts.users.approve", {
      input: () => UserIdParams,
      output: () => MessageSchema,
    }),

    /** Users::RejectService: the pending user goes, 200 {"message": "Success"}. */
    reject: actionContract("accounts.users.reject", {
      input: () => UserIdParams,
      output: () => MessageSchema,
    }),

    /** block / unblock / deactivate / activate: 201 `true`, also when nothing changes. */
    setState: actionContract("accounts.users.setState", {
      input: () => SetUserStateParams,
      output: () => z.literal(true),
    }),
  },

  registrations: {
    /** POST /users outside /api/v4 (the sign-up form): 201 with the user as GET /user shows it. */
    create: actionContract("accounts.registrations.create", {
      input: () => SignUpParams,
      output: () => UserPublicSchema,
    }),
  },

  /** Personal access tokens (API::PersonalAccessTokens and the users API's token routes). */
  tokens: {
    /** POST /users/:user_id/personal_access_tokens (administrators). */
    create: actionContract("accounts.tokens.create", {
      input: () => CreateTokenParams,
      output: () => AccessTokenWithSecretSchema,
    }),

    /** POST /user/personal_access_tokens: the caller's own, narrow scopes only. */
    createOwn: actionContract("accounts.tokens.createOwn", {
      input: () => CreateOwnTokenParams,
      output: () => AccessTokenWithSecretSchema,
    }),

    list: actionContract("accounts.tokens.list", {
      input: () => ListTokensParams,
      output: () => pageOf(AccessTokenSchema),
      idempotent: true,
    }),

    /** One token, `self` the token in use. */
    get: actionContract("accounts.tokens.get", {
      input: () => TokenIdParams,
      output: () => AccessTokenSchema,
      idempotent: true,
    }),

    /** 204. */
    revoke: actionContract("accounts.tokens.revoke", {
      input: () => TokenIdParams,
      output: () => noContent(),
    }),

    /** POST /personal_access_tokens/self/rotate: 200 with the successor. */
    rotateSelf: actionContract("accounts.tokens.rotateSelf", {
      input: () => RotateSelfTokenParams,
      output: () => AccessTokenWithSecretSchema,
    }),
  },

  /** Project and group access tokens (API::ResourceAccessTokens); the routes fix `source`. */
  resourceTokens: {
    list: actionContract("accounts.resourceTokens.list", {
      input: () => ListResourceTokensParams,
      output: () => pageOf(ResourceTokenSchema),
      idempotent: true,
    }),

    get: actionContract("accounts.resourceTokens.get", {
      input: () => ResourceTokenParams,
      output: () => ResourceTokenSchema,
      idempotent: true,
    }),

    create: actionContract("accounts.resourceTokens.create", {
      input: () => CreateResourceTokenParams,
      output: () => ResourceTokenWithSecretSchema,
    }),

    /** 204: the token and its bot go. */
    revoke: actionContract("accounts.resourceTokens.revoke", {
      input: () => ResourceTokenParams,
      output: () => noContent(),
    }),

    /** POST …/:token_id/rotate: 200 with the successor. */
    rotate: actionContract("accounts.resourceTokens.rotate", {
      input: () => RotateResourceTokenParams,
      output: () => ResourceTokenWithSecretSchema,
    }),

    /** POST …/access_tokens/self/rotate: a bot's own token, 200 with the successor. */
    rotateSelf: actionContract("accounts.resourceTokens.rotateSelf", {
      input: () => SelfRotateResourceTokenParams,
      output: () => ResourceTokenWithSecretSchema,
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

    /** GET /deploy_tokens: every deploy token of the instance (administrators). */
    listAll: actionContract("accounts.deployTokens.listAll", {
      input: () => ListAllDeployTokensParams,
      output: () => pageOf(DeployTokenSchema),
      idempotent: true,
    }),

    /** A project's or group's deploy tokens; the routes fix `source`. */
    list: actionContract("accounts.deployTokens.list", {
      input: () => ListDeployTokensParams,
      output: () => pageOf(DeployTokenSchema),
      idempotent: true,
    }),

    get: actionContract("accounts.deployTokens.get", {
      input: () => DeployTokenParams,
      output: () => DeployTokenSchema,
      idempotent: true,
    }),

    /** 201 with the secret. */
    create: actionContract("accounts.deployTokens.create", {
      input: () => CreateDeployTokenParams,
      output: () => DeployTokenWithSecretSchema,
    }),

    /** 204. */
    delete: actionContract("accounts.deployTokens.delete", {
      input: () => DeployTokenParams,
      output: () => noContent(),
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

    /** A top-level group's SAML SSO settings (its Owners). */
    settings: {
      get: actionContract("accounts.saml.settings.get", {
        input: () => SamlGroupParams,
        output: () => SamlSettingsSchema,
        idempotent: true,
      }),

      update: actionContract("accounts.saml.settings.update", {
        input: () => UpdateSamlParams,
        output: () => SamlSettingsSchema,
      }),
    },
  },

  scim: {
    /** The gateway's question for `auth: "scim"` routes: whose SCIM token is this? `group_id` null if nobody's. */
    authenticate: actionContract("accounts.scim.authenticate", {
      input: () => z.object({ token: z.string().min(1) }),
      output: () => z.object({ group_id: id().nullable() }),
    }),

    /** POST /groups/:id/scim/token: 201 with a new token, replacing the group's previous one. */
    token: {
      create: actionContract("accounts.scim.token.create", {
        input: () => SamlGroupParams,
        output: () => ScimTokenSchema,
      }),
    },

    /** The SCIM identities API of a group (API::ProviderIdentity for `scim`), under /api/v4. */
    identities: {
      list: actionContract("accounts.scim.identities.list", {
        input: () => SamlGroupParams,
        output: () => z.array(ScimIdentitySchema),
        idempotent: true,
      }),

      get: actionContract("accounts.scim.identities.get", {
        input: () => ScimIdentityParams,
        output: () => ScimIdentitySchema,
        idempotent: true,
      }),

      update: actionContract("accounts.scim.identities.update", {
        input: () => UpdateScimIdentityParams,
        output: () => ScimIdentitySchema,
      }),

      /** 204. */
      delete: actionContract("accounts.scim.identities.delete", {
        input: () => ScimIdentityParams,
        output: () => noContent(),
      }),
    },

    /** The SCIM 2.0 API (API::Scim::GroupScim) outside /api/v4, answering application/scim+json. */
    users: {
      list: actionContract("accounts.scim.users.list", {
        input: () => ScimListParams,
        output: () => ScimUserListSchema,
        idempotent: true,
      }),

      get: actionContract("accounts.scim.users.get", {
        input: () => ScimUserParams,
        output: () => ScimUserSchema,
        idempotent: true,
      }),

      /** 201 with the user. */
      create: actionContract("accounts.scim.users.create", {
        input: () => ScimCreateParams,
        output: () => ScimUserSchema,
      }),

      /** SCIM PatchOp: 204. */
      update: actionContract("accounts.scim.users.update", {
        input: () => ScimPatchParams,
        output: () => noContent(),
      }),

      /** PUT: 200 with the user. */
      replace: actionContract("accounts.scim.users.replace", {
        input: () => ScimReplaceParams,
        output: () => ScimUserSchema,
      }),

      /** Deprovisioning: 204. */
      delete: actionContract("accounts.scim.users.delete", {
        input: () => ScimUserParams,
        output: () => noContent(),
      }),
    },
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

    /** The caller's global notification settings (GET and PUT /notification_settings). */
    global: {
      get: actionContract("accounts.notifications.global.get", {
        input: () => z.object({}),
        output: () => GlobalNotificationSettingSchema,
        idempotent: true,
      }),

      update: actionContract("accounts.notifications.global.update", {
        input: () => UpdateGlobalSettingParams,
        output: () => GlobalNotificationSettingSchema,
      }),
    },

    /** The caller's settings on a group or project; the routes fix `source`. */
    source: {
      get: actionContract("accounts.notifications.source.get", {
        input: () => SourceSettingParams,
        output: () => NotificationSettingSchema,
        idempotent: true,
      }),

      update: actionContract("accounts.notifications.source.update", {
        input: () => UpdateSourceSettingParams,
        output: () => NotificationSettingSchema,
      }),
    },
  },
};

