/** The webhooks API of projects and groups (GitLab's lib/api/project_hooks.rb, ee/lib/api/group_hooks.rb, lib/api/hooks/*.rb). */
import { actionContract, noContent, pageOf, replyOf } from "@collab/core";
import { z } from "zod";
import { CreateHookParams, HookEventsParams, HookRef, HooksRef, ResendHookEventParams, TestHookParams, UpdateHookParams } from "./params";
import { triggersOf, type HookLevel } from "./triggers";

/** Entities::ProjectHook / Entities::GroupHook: write-only values (token, header and variable values) never shown. */
export const hookSchema = (level: HookLevel) =>
  z.object({
    id: z.number().int(),
    url: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    created_at: z.string(),
    ...(level === "project" ? { project_id: z.number().int() } : { group_id: z.number().int() }),
    ...Object.fromEntries(triggersOf(level).map((x) => [x.flag, z.boolean()])),
    repository_update_events: z.boolean(),
    enable_ssl_verification: z.boolean(),
    alert_status: z.enum(["executable", "disabled", "temporarily_disabled"]),
    disabled_until: z.string().nullable(),
    url_variables: z.array(z.object({ key: z.string() })),
    push_events_branch_filter: z.string().nullable(),
    branch_filter_strategy: z.string(),
    custom_webhook_template: z.string().nullable(),
    custom_headers: z.array(z.object({ key: z.string() })),
  });
export type HookEntity = z.output<ReturnType<typeof hookSchema>>;

/** A hook log (GitLab's Entities::WebHookLog, "recent events"). */
export const HookLogSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  trigger: z.string(),
  request_headers: z.record(z.string(), z.string()),
  request_data: z.record(z.string(), z.unknown()),
  response_headers: z.record(z.string(), z.string()),
  response_body: z.string(),
  response_status: z.string(),
  execution_duration: z.number(),
  created_at: z.string(),
});
export type HookLogEntity = z.output<typeof HookLogSchema>;

const levelHooks = (level: HookLevel) => {
  const p = `integrations.${level}Hooks`;
  return {
    list: actionContract(`${p}.list`, { input: () => HooksRef, output: () => z.array(hookSchema(level)), idempotent: true }),
    get: actionContract(`${p}.get`, { input: () => HookRef, output: () => hookSchema(level), idempotent: true }),
    create: actionContract(`${p}.create`, { input: () => CreateHookParams(level), output: () => hookSchema(level) }),
    update: actionContract(`${p}.update`, { input: () => UpdateHookParams(level), output: () => hookSchema(level) }),
    delete: actionContract(`${p}.delete`, { input: () => HookRef, output: () => noContent() }),
    /** POST …/test/:trigger: runs the hook now with sample data of the trigger. */
    test: actionContract(`${p}.test`, { input: () => TestHookParams, output: () => replyOf(z.object({ message: z.string() }), 201) }),
    /** GET …/events: the hook's recent executions, newest first. */
    events: actionContract(`${p}.events`, { input: () => HookEventsParams, output: () => pageOf(HookLogSchema), idempotent: true }),
    /** POST …/events/:hook_log_id/resend: runs the hook again with that execution's data. */
    resend: actionContract(`${p}.resend`, { input: () => ResendHookEventParams, output: () => replyOf(z.object({ response_status: z.union([z.number(), z.string()]) }), 201) }),
  };
};

export const HooksActions = { projectHooks: levelHooks("project"), groupHooks: levelHooks("group") };
