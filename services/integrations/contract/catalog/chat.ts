import type { EventKind } from "./events";
import type { FieldDef, KindDef } from "./kinds";

/**
 * The chat notifiers (GitLab's Base::ChatNotification family): the parameters each one's set-up
 * accepts and the event booleans it reports on.
 */

const BRANCHES = { enum: ["all", "default", "protected", "default_and_protected"] } as const;

/** The event kinds every chat notifier reports (GitLab's supported events, deployment aside). */
const CHAT_EVENT_KINDS: EventKind[] = ["push_events", "issues_events", "confidential_issues_events", "merge_requests_events", "tag_push_events", "note_events", "confidential_note_events", "pipeline_events", "wiki_page_events"];

/** The per-event channel of Slack and Mattermost, by event kind (`push_channel`, …). */
export const CHANNEL_FIELDS: Partial<Record<EventKind, string>> = {
  push_events: "push_channel",
  issues_events: "issue_channel",
  confidential_issues_events: "confidential_issue_channel",
  merge_requests_events: "merge_request_channel",
  note_events: "note_channel",
  confidential_note_events: "confidential_note_channel",
  tag_push_events: "tag_push_channel",
  pipeline_events: "pipeline_channel",
  wiki_page_events: "wiki_page_channel",
  deployment_events: "deployment_channel",
  alert_events: "alert_channel",
};

const webhook: FieldDef = { name: "webhook", type: "url", required: true, secret: true };
const brokenPipelines: FieldDef = { name: "notify_only_broken_pipelines", type: "boolean", default: true };
const defaultBranchOnly: FieldDef = { name: "notify_only_default_branch", type: "boolean", default: false };
const branches: FieldDef = { name: "branches_to_be_notified", type: BRANCHES, default: "default" };
const labels: FieldDef[] = [
  { name: "labels_to_be_notified", type: "string", default: null },
  { name: "labels_to_be_notified_behavior", type: { enum: ["match_any", "match_all"] }, default: "match_any" },
];

/** Slack and Mattermost: a username and channels (a default one and one per event kind), and label filters. */
const slackLike = (slug: string, title: string, events: EventKind[]): KindDef => ({
  slug,
  title,
  fields: [
    webhook,
    { name: "username", type: "string", default: null },
    { name: "channel", type: "string", default: null },
    brokenPipelines,
    defaultBranchOnly,
    branches,
    ...labels,
    ...events.flatMap((e): FieldDef[] => (CHANNEL_FIELDS[e] ? [{ name: CHANNEL_FIELDS[e], type: "string", default: null }] : [])),
  ],
  events,
});

/** A notifier posting to its webhook, with the pipeline and branch filters only. */
const webhookOnly = (slug: string, title: string, defaultBranch = false): KindDef => ({
  slug,
  title,
  fields: [webhook, brokenPipelines, ...(defaultBranch ? [defaultBranchOnly] : []), branches],
  events: CHAT_EVENT_KINDS,
});

/** Telegram and Matrix: a bot/access token, a room, and the API's host (their public one by default). */
const tokenAndRoom = (slug: string, title: string, extra: FieldDef[]): KindDef => ({
  slug,
  title,
  fields: [
    { name: "hostname", type: "url", default: null, allowBlank: true },
    { name: "token", type: "string", required: true, secret: true },
    { name: "room", type: "string", required: true },
    ...extra,
    brokenPipelines,
    branches,
  ],
  events: CHAT_EVENT_KINDS,
});

export const CHAT_KINDS: readonly KindDef[] = [
  slackLike("slack", "Slack notifications", [...CHAT_EVENT_KINDS, "deployment_events", "alert_events"]),
  slackLike("mattermost", "Mattermost notifications", [...CHAT_EVENT_KINDS, "deployment_events"]),
  webhookOnly("microsoft-teams", "Microsoft Teams notifications", true),
  webhookOnly("hangouts-chat", "Google Chat", true),
  webhookOnly("webex-teams", "Webex Teams"),
  webhookOnly("discord", "Discord Notifications", true),
  webhookOnly("pumble", "Pumble"),
  webhookOnly("unify-circuit", "Unify Circuit"),
  tokenAndRoom("telegram", "Telegram", [{ name: "thread", type: "string", default: null }]),
  tokenAndRoom("matrix", "Matrix notifications", []),
];
