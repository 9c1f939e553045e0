/**
 * The event-kind booleans every integration carries (spec "Events" item 3), with GitLab's column
 * defaults (db/structure.sql of the integrations table). vulnerability_events exists on the
 * enterprise edition only.
 */
export const EVENT_DEFAULTS = {
  commit_events: true,
  push_events: true,
  issues_events: true,
  alert_events: true,
  confidential_issues_events: true,
  merge_requests_events: true,
  tag_push_events: true,
  deployment_events: false,
  note_events: true,
  confidential_note_events: true,
  pipeline_events: false,
  wiki_page_events: true,
  job_events: false,
  vulnerability_events: false,
} as const;

export type EventKind = keyof typeof EVENT_DEFAULTS;
export const EVENT_KINDS = Object.keys(EVENT_DEFAULTS) as EventKind[];

/** comment_on_event_enabled: only the Jira integration uses it; every entity shows its default. */
export const COMMENT_ON_EVENT_DEFAULT = true;

/** The stored event booleans over the defaults. */
export const eventFlags = (stored: Record<string, boolean>): Record<EventKind, boolean> =>
  Object.fromEntries(EVENT_KINDS.map((k) => [k, stored[k] ?? EVENT_DEFAULTS[k]])) as Record<EventKind, boolean>;
