/** Actions of the error-tracking service: the routes' actions and those other services call (see index.ts). */
import { actionContract, pageOf, replyOf } from "@collab/core";
import { z } from "zod";
import { CreateClientKeyParams, DeleteClientKeyParams, ListClientKeysParams } from "./params/client-keys";
import { CollectParams } from "./params/collector";
import { GetSettingParams, PatchSettingParams, PutSettingParams } from "./params/settings";

/** A project's error tracking setting (GitLab's ErrorTracking::ProjectSetting entity). */
export const ErrorTrackingSettingSchema = z.object({
  active: z.boolean(),
  project_name: z.string().nullable(),
  tracker_external_url: z.string().nullable(),
  api_url: z.string().nullable(),
  integrated: z.boolean(),
});
export type ErrorTrackingSettingEntity = z.output<typeof ErrorTrackingSettingSchema>;

/**
 * GitLab's client key. Its DSN keeps GitLab's field name `sentry_dsn`: SDKs of that protocol are
 * configured from it, and clients read it by that name.
 */
export const ClientKeySchema = z.object({
  id: z.number().int(),
  active: z.boolean(),
  public_key: z.string(),
  sentry_dsn: z.string(),
});
export type ClientKeyEntity = z.output<typeof ClientKeySchema>;

/** The collector's answer: 200 with an empty object, whatever was submitted (some SDKs need exactly that). */
const CollectorReceivedSchema = replyOf(z.object({}).strict(), 200);

export const ErrorTrackingActions = {
  settings: {
    /** GET /projects/:id/error_tracking/settings */
    get: actionContract("error-tracking.settings.get", { input: () => GetSettingParams, output: () => ErrorTrackingSettingSchema, idempotent: true }),
    /** PATCH /projects/:id/error_tracking/settings: an existing setting switched on or off. */
    patch: actionContract("error-tracking.settings.patch", { input: () => PatchSettingParams, output: () => ErrorTrackingSettingSchema }),
    /** PUT /projects/:id/error_tracking/settings: configured, created when absent. */
    put: actionContract("error-tracking.settings.put", { input: () => PutSettingParams, output: () => ErrorTrackingSettingSchema }),
  },
  clientKeys: {
    /** GET /projects/:id/error_tracking/client_keys */
    list: actionContract("error-tracking.clientKeys.list", { input: () => ListClientKeysParams, output: () => pageOf(ClientKeySchema), idempotent: true }),
    /** POST /projects/:id/error_tracking/client_keys: the new key, 201. */
    create: actionContract("error-tracking.clientKeys.create", { input: () => CreateClientKeyParams, output: () => ClientKeySchema }),
    /** DELETE /projects/:id/error_tracking/client_keys/:key_id: the deleted key, 200 (as GitLab). */
    delete: actionContract("error-tracking.clientKeys.delete", { input: () => DeleteClientKeyParams, output: () => replyOf(ClientKeySchema, 200) }),
  },
  collector: {
    /** POST /error_tracking/collector/api/:id/envelope: a Sentry envelope (its error events stored). */
    envelope: actionContract("error-tracking.collector.envelope", { input: () => CollectParams, output: () => CollectorReceivedSchema }),
    /** POST /error_tracking/collector/api/:id/store: one Sentry event (the legacy store endpoint). */
    store: actionContract("error-tracking.collector.store", { input: () => CollectParams, output: () => CollectorReceivedSchema }),
  },
  errors: {
    /** The error events stored for a project, for other services and tests (no HTTP route). */
    list: actionContract("error-tracking.errors.list", {
      input: () => z.object({ project_id: z.number().int().positive() }),
      output: () =>
        z.array(
          z.object({
            id: z.number().int(),
            project_id: z.number().int(),
            event_id: z.string(),
            exception_type: z.string().nullable(),
            exception_message: z.string().nullable(),
            platform: z.string().nullable(),
            environment: z.string().nullable(),
            occurred_at: z.string(),
            received_at: z.string(),
            /** The event as the SDK sent it. */
            payload: z.unknown(),
          }),
        ),
      idempotent: true,
    }),
  },
};
