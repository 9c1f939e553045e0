/** Actions of the admin service: the routes' (the gateway calls them) and those other services call (see index.ts). */
import { AccessTokenSchema, AccessTokenWithSecretSchema, ServiceAccountSchema, ServiceAccountSummarySchema } from "@collab/accounts-contract";
import { actionContract, EventEnvelopeSchema, noContent, pageOf, replyOf, SETTINGS_ACTIONS } from "@collab/core";
import { ProjectIdentitySchema } from "@collab/namespaces-contract";
import { StorageMoveSnippetSchema } from "@collab/snippets-contract";
import { z } from "zod";
import { BroadcastIdParams, CreateBroadcastParams, ListBroadcastParams, UpdateBroadcastParams } from "./params/broadcast";
import { DeadLetterIdParams, ListDeadLettersParams } from "./params/dead-letters";
import {
  CreateGroupServiceAccountParams,
  CreateGroupServiceAccountTokenParams,
  CreateServiceAccountParams,
  DeleteGroupServiceAccountParams,
  ListGroupServiceAccountsParams,
  ListGroupServiceAccountTokensParams,
  ListServiceAccountsParams,
  RevokeGroupServiceAccountTokenParams,
  RotateGroupServiceAccountTokenParams,
  UpdateGroupServiceAccountParams,
  UpdateServiceAccountParams,
} from "./params/service-accounts";
import { ApplicationSettingsSchema, UpdateSettingsParams } from "./params/settings";
import { BulkMoveParams, ContainerMoveParams, ContainerMovesParams, CreateMoveParams, ListMovesParams, MoveIdParams } from "./params/storage-moves";

/** Entities::System::BroadcastMessage; `active` is computed from the window at read time. */
export const BroadcastMessageSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  color: z.string(),
  font: z.string().nullable(),
  active: z.boolean(),
  target_access_levels: z.array(z.number().int()),
  target_path: z.string().nullable(),
  broadcast_type: z.string(),
  dismissable: z.boolean().nullable(),
  theme: z.string(),
});
export type BroadcastMessage = z.output<typeof BroadcastMessageSchema>;

/** A Flipper gate of an experiment: its kind and its value (true/false, a percentage, actor or group ids). */
export const GateSchema = z.object({ key: z.enum(["boolean", "percentage_of_actors", "percentage_of_time", "actors", "groups"]), value: z.unknown() });
export type Gate = z.output<typeof GateSchema>;

/** An experiment definition (GitLab's config/feature_flags/experiment YAML). */
export const ExperimentDefinitionSchema = z.object({
  name: z.string(),
  introduced_by_url: z.string().nullable(),
  rollout_issue_url: z.string().nullable(),
  milestone: z.string().nullable(),
  type: z.literal("experiment"),
  group: z.string(),
  default_enabled: z.boolean(),
});
export type ExperimentDefinition = z.output<typeof ExperimentDefinitionSchema>;

/** GET /experiments: an experiment, its definition and Flipper's view of its gates. */
export const ExperimentSchema = z.object({
  key: z.string(),
  definition: ExperimentDefinitionSchema,
  current_status: z.object({ state: z.enum(["on", "conditional", "off"]), gates: z.array(GateSchema) }),
});
/** Flipper's view of an experiment's gates. */
export type ExperimentStatus = z.output<typeof ExperimentSchema>["current_status"];

/** A domain event a consumer gave up on (@collab/db's DeadLetter). */
export const DeadLetterSchema = z.object({
  id: z.number().int(),
  service: z.string(),
  event: EventEnvelopeSchema,
  error: z.string(),
  deliveries: z.number().int(),
  dead_lettered_at: z.string(),
});

/** What replaying a dead letter came to: replayed (and deleted), or the error it raised again. */
export const ReplayOutcomeSchema = z.object({
  id: z.number().int(),
  service: z.string(),
  event: z.string(),
  replayed: z.boolean(),
  error: z.string().optional(),
});
export type ReplayOutcome = z.output<typeof ReplayOutcomeSchema>;

/** Entities::{Projects,Snippets,Groups}::RepositoryStorageMove, without the container it embeds. */
const moveFields = {
  id: z.number().int(),
  created_at: z.string(),
  state: z.string(),
  source_storage_name: z.string(),
  destination_storage_name: z.string(),
};
/** The group a group's move embeds: what namespaces' storage.containers answers for groups (it exports no schema of it). */
const GroupContainerSchema = z.object({ id: z.number(), web_url: z.string(), name: z.string() });
/** A project's move embeds the project (null once it is gone). */
export const ProjectStorageMoveSchema = z.object({ ...moveFields, project: ProjectIdentitySchema.nullable() });
/** A snippet's move embeds the snippet (null once it is gone). */
export const SnippetStorageMoveSchema = z.object({ ...moveFields, snippet: StorageMoveSnippetSchema.nullable() });
/** A group's move embeds the group (null once it is gone). */
export const GroupStorageMoveSchema = z.object({ ...moveFields, group: GroupContainerSchema.nullable() });
export type ProjectStorageMove = z.output<typeof ProjectStorageMoveSchema>;
export type SnippetStorageMove = z.output<typeof SnippetStorageMoveSchema>;
export type GroupStorageMove = z.output<typeof GroupStorageMoveSchema>;

/** `accepted()`: 202 {"message": "202 Accepted"}. */
const acceptedReply = () => replyOf(z.object({ message: z.string() }), 202);

/** The six storage-move operations of one container type, as GitLab mounts them (admins only). */
const storageMovesOf = <M extends z.ZodType>(type: "project" | "snippet" | "group", move: () => M) => ({
  /** GET /<type>_repository_storage_moves */
  list: actionContract(`admin.storageMoves.${type}.list`, { input: () => ListMovesParams, output: () => pageOf(move()), idempotent: true }),
  /** GET /<type>_repository_storage_moves/:repository_storage_move_id */
  get: actionContract(`admin.storageMoves.${type}.get`, { input: () => MoveIdParams, output: move, idempotent: true }),
  /** GET /<type>s/:id/repository_storage_moves */
  listFor: actionContract(`admin.storageMoves.${type}.listFor`, { input: () => ContainerMovesParams, output: () => pageOf(move()), idempotent: true }),
  /** GET /<type>s/:id/repository_storage_moves/:repository_storage_move_id */
  getFor: actionContract(`admin.storageMoves.${type}.getFor`, { input: () => ContainerMoveParams, output: move, idempotent: true }),
  /** POST /<type>s/:id/repository_storage_moves: 201 with the scheduled move. */
  create: actionContract(`admin.storageMoves.${type}.create`, { input: () => CreateMoveParams, output: move }),
  /** POST /<type>_repository_storage_moves: every writable container on the source storage; 202. */
  bulk: actionContract(`admin.storageMoves.${type}.bulk`, { input: () => BulkMoveParams, output: acceptedReply }),
});

export const AdminActions = {
  settings: {
    /** The settings snapshot every process loads (declared beside its caller, @collab/core settings.ts). */
    current: SETTINGS_ACTIONS.current,
    /** GET /application/settings: administrators only. */
    get: actionContract("admin.settings.get", { input: () => z.object({}), output: () => ApplicationSettingsSchema, idempotent: true }),
    /** PUT /application/settings: stores, then broadcasts the whole snapshot to every process. */
    update: actionContract("admin.settings.update", { input: () => UpdateSettingsParams, output: () => ApplicationSettingsSchema }),
  },
  broadcastMessages: {
    /** GET /broadcast_messages: anyone. */
    list: actionContract("admin.broadcastMessages.list", { input: () => ListBroadcastParams, output: () => pageOf(BroadcastMessageSchema), idempotent: true }),
    /** GET /broadcast_messages/:id: anyone. */
    get: actionContract("admin.broadcastMessages.get", { input: () => BroadcastIdParams, output: () => BroadcastMessageSchema, idempotent: true }),
    /** POST /broadcast_messages: administrators. */
    create: actionContract("admin.broadcastMessages.create", { input: () => CreateBroadcastParams, output: () => BroadcastMessageSchema }),
    /** PUT /broadcast_messages/:id: administrators. */
    update: actionContract("admin.broadcastMessages.update", { input: () => UpdateBroadcastParams, output: () => BroadcastMessageSchema }),
    /** DELETE /broadcast_messages/:id: administrators; 204. */
    delete: actionContract("admin.broadcastMessages.delete", { input: () => BroadcastIdParams, output: noContent }),
  },
  serviceAccounts: {
    /** GET /service_accounts: the instance's service accounts, for administrators. */
    list: actionContract("admin.serviceAccounts.list", { input: () => ListServiceAccountsParams, output: () => pageOf(ServiceAccountSummarySchema), idempotent: true }),
    /** POST /service_accounts */
    create: actionContract("admin.serviceAccounts.create", { input: () => CreateServiceAccountParams, output: () => ServiceAccountSchema }),
    /** PATCH /service_accounts/:user_id: any service account, for administrators. */
    update: actionContract("admin.serviceAccounts.update", { input: () => UpdateServiceAccountParams, output: () => ServiceAccountSchema }),
  },
  groupServiceAccounts: {
    /** GET /groups/:id/service_accounts: owners of a top-level group (or administrators). */
    list: actionContract("admin.groupServiceAccounts.list", { input: () => ListGroupServiceAccountsParams, output: () => pageOf(ServiceAccountSummarySchema), idempotent: true }),
    /** POST /groups/:id/service_accounts */
    create: actionContract("admin.groupServiceAccounts.create", { input: () => CreateGroupServiceAccountParams, output: () => ServiceAccountSchema }),
    /** DELETE /groups/:id/service_accounts/:user_id: 204. */
    delete: actionContract("admin.groupServiceAccounts.delete", { input: () => DeleteGroupServiceAccountParams, output: noContent }),
    /** PATCH /groups/:id/service_accounts/:user_id: the group's own service accounts. */
    update: actionContract("admin.groupServiceAccounts.update", { input: () => UpdateGroupServiceAccountParams, output: () => ServiceAccountSchema }),
    /** GET /groups/:id/service_accounts/:user_id/personal_access_tokens */
    listTokens: actionContract("admin.groupServiceAccounts.listTokens", { input: () => ListGroupServiceAccountTokensParams, output: () => pageOf(AccessTokenSchema), idempotent: true }),
    /** POST /groups/:id/service_accounts/:user_id/personal_access_tokens: the token with its secret. */
    createToken: actionContract("admin.groupServiceAccounts.createToken", { input: () => CreateGroupServiceAccountTokenParams, output: () => AccessTokenWithSecretSchema }),
    /** DELETE /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id: 204. */
    revokeToken: actionContract("admin.groupServiceAccounts.revokeToken", { input: () => RevokeGroupServiceAccountTokenParams, output: noContent }),
    /** POST …/personal_access_tokens/:token_id/rotate: the new token with its secret (200). */
    rotateToken: actionContract("admin.groupServiceAccounts.rotateToken", { input: () => RotateGroupServiceAccountTokenParams, output: () => AccessTokenWithSecretSchema }),
  },
  experiments: {
    /** GET /experiments: every known experiment with its definition and gate state (hosted; staff = administrators). */
    list: actionContract("admin.experiments.list", { input: () => z.object({}), output: () => z.array(ExperimentSchema), idempotent: true }),
    /** Bus only (operators, tests): replaces an experiment's gates; 404 for an unknown experiment. */
    setGates: actionContract("admin.experiments.setGates", {
      input: () => z.object({ key: z.string(), gates: z.array(GateSchema) }),
      output: () => z.object({ ok: z.literal(true) }),
    }),
  },
  deadLetters: {
    /** GET /admin/dead_letters: the letters, oldest first (empty in one process: no JetStream). */
    list: actionContract("admin.deadLetters.list", { input: () => ListDeadLettersParams, output: () => pageOf(DeadLetterSchema), idempotent: true }),
    /** GET /admin/dead_letters/:id */
    get: actionContract("admin.deadLetters.get", { input: () => DeadLetterIdParams, output: () => DeadLetterSchema, idempotent: true }),
    /** POST /admin/dead_letters/:id/replay: applies it once more through its service, then deletes it (200). */
    replay: actionContract("admin.deadLetters.replay", { input: () => DeadLetterIdParams, output: () => ReplayOutcomeSchema }),
    /** POST /admin/dead_letters/replay: the same for every letter (200). */
    replayAll: actionContract("admin.deadLetters.replayAll", { input: () => z.object({}), output: () => z.array(ReplayOutcomeSchema) }),
    /** DELETE /admin/dead_letters/:id: 204. */
    delete: actionContract("admin.deadLetters.delete", { input: () => DeadLetterIdParams, output: noContent }),
  },
  storageMoves: {
    project: storageMovesOf("project", () => ProjectStorageMoveSchema),
    snippet: storageMovesOf("snippet", () => SnippetStorageMoveSchema),
    group: storageMovesOf("group", () => GroupStorageMoveSchema),
    /** Bus only: one step of the storage-move worker now (tests tick deterministically); answers how many moves advanced. */
    tick: actionContract("admin.storageMoves.tick", {
      input: () => z.object({}),
      output: () => z.number().int(),
    }),
  },
  rateLimits: {
    /**
     * Counts one hit of an application rate limit `key` in the current fixed window of
     * `window_seconds`: the hits so far in it, and when it ends (unix seconds).
     */
    hit: actionContract("admin.rateLimits.hit", {
      input: () => z.object({ key: z.string().max(500), window_seconds: z.number().int().positive() }),
      output: () => z.object({ count: z.number().int(), reset_at: z.number().int() }),
    }),
  },
};

/** The project a project's storage move embeds (namespaces' ProjectIdentity). */
export type ProjectContainer = z.output<typeof ProjectIdentitySchema>;
/** The group a group's storage move embeds, as namespaces answers it. */
export type GroupContainer = z.output<typeof GroupContainerSchema>;
