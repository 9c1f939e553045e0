import { eventTables } from "@collab/db";
import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, pgSchema, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const integrationsSchema = pgSchema("integrations");

/** Durable domain events: this service consumes (processed_events); its outbox stays empty for now. */
export const { outbox, processedEvents } = eventTables(integrationsSchema);

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * One integration of a project or of a group (exactly one of the two), by slug. A row exists once
 * it has been set up; DELETE keeps it with its settings reset and active = false, as GitLab does.
 * `properties` holds the kind's settings, secrets included (never presented); `events` the
 * event-kind booleans that differ from the column defaults of the contract's catalog/events.ts.
 */
export const integrations = integrationsSchema.table(
  "integrations",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id"),
    groupId: integer("group_id"),
    slug: text("slug").notNull(),
    active: boolean("active").notNull().default(false),
    /** Follows the closest ancestor group's integration of this slug (GitLab's inherit_from_id). */
    useInheritedSettings: boolean("use_inherited_settings").notNull().default(false),
    properties: jsonb("properties").$type<Record<string, unknown>>().notNull().default({}),
    events: jsonb("events").$type<Record<string, boolean>>().notNull().default({}),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("integrations_project_slug_idx").on(t.projectId, t.slug).where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex("integrations_group_slug_idx").on(t.groupId, t.slug).where(sql`${t.groupId} IS NOT NULL`),
    check("integrations_one_owner", sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
  ],
);

/**
 * One outgoing message of an integration for one domain event (a chat webhook POST, a pipeline
 * email). The event consumer only records the event ("new": project, slug, payload), in its own
 * transaction and with no calls to other services; the worker then resolves the integration acting
 * for the project (its own or an ancestor group's) and builds the message ("pending"), or drops the
 * row when none applies, and sends it. Unique per (project, slug, event id) — one acting integration
 * per project and slug — so a redelivered event is sent once.
 * status: new → pending → delivered | failed (attempts exhausted) | refused (outbound guard; not retried).
 */
export const integrationDeliveries = integrationsSchema.table(
  "integration_deliveries",
  {
    id: serial("id").primaryKey(),
    /** A webhook's delivery (slug `webhook:<id>`): sent in order per hook, after the ones before it. */
    webHookId: integer("web_hook_id").references(() => webHooks.id, { onDelete: "cascade" }),
    /** Set when the worker resolved which integration acts (null while "new"). */
    integrationId: integer("integration_id").references(() => integrations.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    /** The project the event happened in (a group integration serves all its projects); null for a group's event (webhooks' member events). */
    projectId: integer("project_id"),
    eventId: text("event_id").notNull(),
    eventName: text("event_name").notNull(),
    occurredAt: ts("occurred_at").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** What is sent (the Discord message or the mail), built by the worker. */
    message: jsonb("message").$type<Record<string, unknown>>(),
    status: text("status").notNull().default("new"),
    attempts: integer("attempts").notNull().default(0),
    /** Bumped by every claim, never reset: a worker writes only under the claim it made (deliveries/worker.ts). */
    claims: integer("claims").notNull().default(0),
    responseCode: integer("response_code"),
    error: text("error"),
    /** How long the last attempt took, in seconds (as web_hook_logs.execution_duration). */
    executionDuration: doublePrecision("execution_duration"),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    uniqueIndex("integration_deliveries_event_idx").on(t.projectId, t.slug, t.eventId),
    uniqueIndex("integration_deliveries_group_event_idx").on(t.slug, t.eventId).where(sql`${t.projectId} IS NULL`),
    index("integration_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} IN ('new', 'pending')`),
    index("integration_deliveries_integration_idx").on(t.integrationId),
    index("integration_deliveries_web_hook_idx").on(t.webHookId, t.id).where(sql`${t.status} IN ('new', 'pending')`),
  ],
);

/**
 * A project's or a group's webhook (GitLab's ProjectHook and GroupHook). `events` holds the trigger
 * flags that differ from their defaults (hooks/triggers.ts); `token`, the values of
 * `custom_headers` and of `url_variables` are write-only and stored sealed (SECRETS_KEY).
 * recent_failures, backoff_count and disabled_until are GitLab's auto-disabling state.
 */
export const webHooks = integrationsSchema.table(
  "web_hooks",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id"),
    groupId: integer("group_id"),
    /** X-Gitlab-Webhook-UUID. */
    uuid: uuid("uuid").notNull().defaultRandom(),
    url: text("url").notNull(),
    name: text("name"),
    description: text("description"),
    token: text("token"),
    events: jsonb("events").$type<Record<string, boolean>>().notNull().default({}),
    enableSslVerification: boolean("enable_ssl_verification").notNull().default(true),
    pushEventsBranchFilter: text("push_events_branch_filter"),
    branchFilterStrategy: text("branch_filter_strategy").notNull().default("wildcard"),
    customWebhookTemplate: text("custom_webhook_template"),
    customHeaders: jsonb("custom_headers").$type<Record<string, string>>().notNull().default({}),
    urlVariables: jsonb("url_variables").$type<Record<string, string>>().notNull().default({}),
    recentFailures: integer("recent_failures").notNull().default(0),
    backoffCount: integer("backoff_count").notNull().default(0),
    disabledUntil: ts("disabled_until"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("web_hooks_project_idx").on(t.projectId).where(sql`${t.projectId} IS NOT NULL`),
    index("web_hooks_group_idx").on(t.groupId).where(sql`${t.groupId} IS NOT NULL`),
    check("web_hooks_one_owner", sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
  ],
);

/** One execution of a webhook (GitLab's WebHookLog, "recent events"): what was sent and what came back, truncated. */
export const webHookLogs = integrationsSchema.table(
  "web_hook_logs",
  {
    id: serial("id").primaryKey(),
    webHookId: integer("web_hook_id")
      .notNull()
      .references(() => webHooks.id, { onDelete: "cascade" }),
    trigger: text("trigger").notNull(),
    url: text("url").notNull(),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>().notNull(),
    requestData: jsonb("request_data").$type<Record<string, unknown>>().notNull(),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>().notNull(),
    responseBody: text("response_body").notNull(),
    /** The HTTP status, or "internal error" when no answer came. */
    responseStatus: text("response_status").notNull(),
    executionDuration: doublePrecision("execution_duration").notNull(),
    internalErrorMessage: text("internal_error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("web_hook_logs_hook_idx").on(t.webHookId, t.id)],
);

export type IntegrationRow = typeof integrations.$inferSelect;
export type DeliveryRow = typeof integrationDeliveries.$inferSelect;
export type WebHookRow = typeof webHooks.$inferSelect;
export type WebHookLogRow = typeof webHookLogs.$inferSelect;
