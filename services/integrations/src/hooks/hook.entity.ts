import { hookFlags, type HookEntity, type HookLevel, type HookLogEntity } from "@collab/integrations-contract";
import type { WebHookLogRow, WebHookRow } from "../db/schema";
import { alertStatus } from "./auto-disabling";

/** Entities::ProjectHook / GroupHook: the token and the values of custom headers and URL variables are never shown. */
export function presentHook(level: HookLevel, h: WebHookRow): HookEntity {
  return {
    id: h.id,
    url: h.url,
    name: h.name,
    description: h.description,
    created_at: h.createdAt.toISOString(),
    ...(level === "project" ? { project_id: h.projectId! } : { group_id: h.groupId! }),
    ...hookFlags(level, h.events),
    repository_update_events: false,
    enable_ssl_verification: h.enableSslVerification,
    alert_status: alertStatus(h),
    disabled_until: h.disabledUntil?.toISOString() ?? null,
    url_variables: Object.keys(h.urlVariables).map((key) => ({ key })),
    push_events_branch_filter: h.pushEventsBranchFilter,
    branch_filter_strategy: h.branchFilterStrategy,
    custom_webhook_template: h.customWebhookTemplate,
    custom_headers: Object.keys(h.customHeaders).map((key) => ({ key })),
  } as HookEntity;
}

/** Entities::WebHookLog (the token header masked as GitLab stores it). */
export const presentLog = (l: WebHookLogRow): HookLogEntity => ({
  id: l.id,
  url: l.url,
  trigger: l.trigger,
  request_headers: l.requestHeaders,
  request_data: l.requestData,
  response_headers: l.responseHeaders,
  response_body: l.responseBody,
  response_status: l.responseStatus,
  execution_duration: l.executionDuration,
  created_at: l.createdAt.toISOString(),
});
