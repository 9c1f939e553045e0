import { gArray, gBool, gEnum, gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";
import { BRANCH_FILTER_STRATEGIES, TEST_TRIGGERS, triggersOf, type HookLevel } from "./triggers";

/** The project or group a hooks route names. */
export const HooksRef = z.object({ id: gString() });
export const HookRef = HooksRef.extend({ hook_id: gId() });

/** A string of at most `max` characters. */
const limited = (max: number) => gString().refine((s) => s.length <= max, { error: `is too long (maximum is ${max} characters)` });

/** custom_headers and url_variables entries: `{ key, value }` (the value write-only). */
const KeyValue = z.object({ key: gString(), value: gString() });

/** A hook's writable attributes (GitLab's ProjectHooks/GroupHooks `hook_parameters`); url required on create. */
export const hookParams = (level: HookLevel) =>
  z.object({
    url: limited(2048),
    name: limited(255).optional(),
    description: limited(2048).optional(),
    token: limited(255).optional(),
    enable_ssl_verification: gBool().optional(),
    push_events_branch_filter: limited(5000).optional(),
    branch_filter_strategy: gEnum(BRANCH_FILTER_STRATEGIES).optional(),
    custom_webhook_template: limited(4096).optional(),
    custom_headers: gArray(KeyValue).optional(),
    url_variables: gArray(KeyValue).optional(),
    ...Object.fromEntries(triggersOf(level).map((x) => [x.flag, gBool().optional()])),
  });

export const CreateHookParams = (level: HookLevel) => HooksRef.extend(hookParams(level).shape);
export const UpdateHookParams = (level: HookLevel) => HookRef.extend(hookParams(level).partial().shape);
export type HookWrite = Partial<z.output<ReturnType<typeof hookParams>>> & Record<string, unknown>;

export const TestHookParams = HookRef.extend({ trigger: gEnum(TEST_TRIGGERS) });

/** GET …/hooks/:hook_id/events: `status` a response code or GitLab's categories. */
export const HookEventsParams = HookRef.extend({
  status: z.union([z.coerce.number().int().min(100).max(599), gEnum(["successful", "client_failure", "server_failure"] as const)]).optional(),
  ...paginationParams,
});
export const ResendHookEventParams = HookRef.extend({ hook_log_id: gId() });
