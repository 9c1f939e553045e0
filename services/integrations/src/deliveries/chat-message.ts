import { CHANNEL_FIELDS, type EventKind } from "@collab/integrations-contract";

/**
 * The one message model of the chat notifiers: what happened (`summary`, without the project),
 * who, the thing it is about (`title`, `url`), and its text. Each tool's formatter below renders
 * it in that tool's format; GitLab's message texts (ChatMessage::*) are the model.
 */
export interface ChatFacts {
  kind: EventKind;
  project: string;
  projectUrl: string;
  summary: string;
  title: string;
  url: string;
  description?: string;
  author: string;
  at: string;
  /** What the message is about, for tools that thread messages (Google Chat): "issue 3", "pipeline 5". */
  thread: string;
}

/** The JSON body of one delivery, per slug. */
export type ChatBody = Record<string, unknown>;

/** The renderings of a link and of text in one tool's markup. */
interface Markup {
  link: (text: string, url: string) => string;
  escape: (text: string) => string;
}
const markdown: Markup = { link: (text, url) => `[${text.replace(/[[\]]/g, "\\$&")}](${url})`, escape: (text) => text };
/** Slack's mrkdwn (also Mattermost's and Google Chat's): <url|text> links, &, <, > escaped. */
const slackMarkup: Markup = {
  link: (text, url) => `<${url}|${slackMarkup.escape(text)}>`,
  escape: (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
};

/** "[project] Issue #3 opened by Ann", the project linked. */
const headline = (m: ChatFacts, k: Markup) => `[${k.link(m.project, m.projectUrl)}] ${k.escape(m.summary)}`;
/** The headline, the linked title and the text, one per line. */
const fullText = (m: ChatFacts, k: Markup) => [headline(m, k), k.link(m.title, m.url), m.description ? k.escape(m.description) : undefined].filter((l) => l !== undefined).join("\n");

/** The first name of a comma-separated channel list (GitLab posts to each; one here). */
const firstOf = (value: unknown) => (typeof value === "string" ? value.split(",").map((c) => c.trim()).find(Boolean) : undefined);

/** Slack and Mattermost: the event kind's channel, else the default one; the username when set. */
function slackBody(m: ChatFacts, properties: Record<string, unknown>): ChatBody {
  const channelField = CHANNEL_FIELDS[m.kind];
  const channel = (channelField && firstOf(properties[channelField])) || firstOf(properties.channel);
  const username = typeof properties.username === "string" && properties.username.trim() ? properties.username.trim() : undefined;
  return {
    text: headline(m, slackMarkup),
    attachments: [{ title: m.title, title_link: m.url, text: m.description ?? "", color: GITLAB_COLOR, fallback: `${m.summary}: ${m.title}` }],
    ...(channel ? { channel } : {}),
    ...(username ? { username } : {}),
  };
}

const GITLAB_COLOR = "#FC6D26";
const GITLAB_ORANGE = 0xfc6d26;

/** The body each tool's API expects for a message, by slug. */
const FORMATS: Record<string, (m: ChatFacts, properties: Record<string, unknown>) => ChatBody> = {
  slack: slackBody,
  mattermost: slackBody,
  // https://learn.microsoft.com/outlook/actionable-messages/message-card-reference
  "microsoft-teams": (m) => ({
    "@type": "MessageCard",
    "@context": "https://schema.org/extensions",
    summary: `[${m.project}] ${m.summary}`,
    themeColor: GITLAB_COLOR,
    sections: [{ activityTitle: m.summary, activitySubtitle: `in ${markdown.link(m.project, m.projectUrl)}`, activityText: [markdown.link(m.title, m.url), m.description].filter(Boolean).join("\n\n"), markdown: true }],
  }),
  // The thread key is also sent as a query parameter (see chatRequest).
  "hangouts-chat": (m) => ({ text: fullText(m, slackMarkup), thread: { threadKey: m.thread } }),
  "webex-teams": (m) => ({ markdown: fullText(m, markdown) }),
  // https://discord.com/developers/docs/resources/webhook#execute-webhook
  discord: (m) => ({
    content: `[${m.project}] ${m.summary}`,
    embeds: [{ title: m.title.slice(0, 256), url: m.url, description: (m.description ?? "").slice(0, 2000), color: GITLAB_ORANGE, author: { name: m.author }, timestamp: m.at }],
  }),
  pumble: (m) => ({ text: fullText(m, markdown) }),
  "unify-circuit": (m) => ({ subject: m.project, text: fullText(m, markdown), markdown: true }),
  // https://core.telegram.org/bots/api#sendmessage
  telegram: (m, properties) => {
    const thread = String(properties.thread ?? "").trim();
    return { chat_id: properties.room, text: fullText(m, markdown), parse_mode: "markdown", ...(/^\d+$/.test(thread) ? { message_thread_id: Number(thread) } : {}) };
  },
  // https://spec.matrix.org/v1.10/client-server-api/#mroommessage-msgtypes
  matrix: (m) => ({ msgtype: "m.notice", body: fullText(m, markdown), format: "org.matrix.custom.html", formatted_body: fullText(m, htmlMarkup).replace(/\n/g, "<br>") }),
};
export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const htmlMarkup: Markup = { link: (text, url) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`, escape: escapeHtml };

export const CHAT_SLUGS = Object.keys(FORMATS);

/** A chat message in the tool's format (the integration's properties give channels, username, room). */
export function chatBody(slug: string, m: ChatFacts, properties: Record<string, unknown>): ChatBody {
  const format = FORMATS[slug];
  if (!format) throw new Error(`integrations: no chat format for ${slug}`);
  return format(m, properties);
}

/** Where and how a chat delivery is sent: the tool's webhook, or its API for Telegram and Matrix. */
export interface ChatRequest {
  method: "POST" | "PUT";
  url: string;
  headers?: Record<string, string>;
}

const DEFAULT_HOSTS: Record<string, string> = { telegram: "https://api.telegram.org", matrix: "https://matrix-client.matrix.org" };

/**
 * The request of one delivery. `secret` opens the integration's secret fields; `deliveryId` is
 * Matrix's transaction id, so a retried send is the same event to the server, not a second one.
 */
export function chatRequest(slug: string, properties: Record<string, unknown>, secret: (name: string) => string, body: ChatBody, deliveryId: number): ChatRequest {
  const host = () => (String(properties.hostname ?? "").trim() || DEFAULT_HOSTS[slug]).replace(/\/+$/, "");
  if (slug === "telegram") return { method: "POST", url: `${host()}/bot${secret("token")}/sendMessage` };
  if (slug === "matrix") {
    const room = encodeURIComponent(String(properties.room ?? ""));
    return { method: "PUT", url: `${host()}/_matrix/client/v3/rooms/${room}/send/m.room.message/collab-${deliveryId}`, headers: { authorization: `Bearer ${secret("token")}` } };
  }
  const url = new URL(secret("webhook"));
  if (slug === "hangouts-chat") {
    const key = (body.thread as { threadKey?: string } | undefined)?.threadKey;
    if (key) url.searchParams.set("messageReplyOption", "REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD");
  }
  return { method: "POST", url: url.toString() };
}
