import { closingStatements } from "@collab/work-items";
import { RE2JS } from "re2js";

/**
 * The Jira integration's side of mentions and closings, as GitLab's Integrations::Jira does it:
 * issue keys found by its reference pattern (jira_issue_prefix, jira_issue_regex: RE2 syntax, so
 * linear-time whatever the user wrote), a cross-reference comment and a remote link on the Jira
 * issue for each mention, and the issue transitioned when a merge request or a commit on the
 * default branch closes it.
 */
export const JIRA_SLUG = "jira";

/** Gitlab::Regex.jira_issue_key_regex, its CVE-ID exclusion applied after the match (RE2 has no lookahead). */
const DEFAULT_KEY = "[A-Z][A-Z_0-9]+-\\d+";
const CVE_ID = /^CVE-\d+-\d+/;

/** The reference pattern of the integration's settings; throws on a regex or prefix RE2 refuses. */
export function keyPattern(properties: Record<string, unknown>): RE2JS {
  const prefix = typeof properties.jira_issue_prefix === "string" ? properties.jira_issue_prefix : "";
  const regex = typeof properties.jira_issue_regex === "string" && properties.jira_issue_regex.trim() ? properties.jira_issue_regex : DEFAULT_KEY;
  return RE2JS.compile(`\\b${prefix}(?P<issue>${regex})`);
}

/** Whether a prefix or regex is one GitLab's untrusted_regexp validation accepts (RE2 syntax, 255 characters at most). */
export function validKeySetting(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (typeof value !== "string" || value.length > 255) return false;
  try {
    RE2JS.compile(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Jira model's validations: username with Basic authentication, jira_auth_type 0 or 1, the
 * prefix and regex valid RE2, transition ids holding a number (the ids are the numbers in it, split by , or ;).
 */
export function jiraSettingsValid(p: Record<string, unknown>): boolean {
  const authType = p.jira_auth_type ?? 0;
  if (authType !== 0 && authType !== 1) return false;
  if (authType === 0 && !(typeof p.username === "string" && p.username.trim())) return false;
  if (!validKeySetting(p.jira_issue_prefix) || !validKeySetting(p.jira_issue_regex)) return false;
  const ids = p.jira_issue_transition_id;
  // GitLab's format validation matches anywhere in the value: blank, or holding a number.
  return ids === undefined || ids === null || ids === "" || (typeof ids === "string" && /\d/.test(ids));
}

/** The issue keys these texts mention, in order, once each. */
export function issueKeys(properties: Record<string, unknown>, texts: Iterable<string | null | undefined>): string[] {
  const pattern = keyPattern(properties);
  const custom = typeof properties.jira_issue_regex === "string" && properties.jira_issue_regex.trim() !== "";
  const keys = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    const m = pattern.matcher(text);
    while (m.find()) {
      const key = m.group("issue");
      if (!key) continue;
      if (!custom && CVE_ID.test(text.slice(m.start("issue")))) continue;
      keys.add(key);
    }
  }
  return [...keys];
}

/** The Jira issues these texts close. */
export const closedKeys = (properties: Record<string, unknown>, texts: (string | null | undefined)[]) => issueKeys(properties, texts.flatMap(closingStatements));

/** What was mentioned (GitLab's `mentioned_in`): a merge request, a commit, an issue or a snippet of the project. */
export interface MentionEntity {
  /** merge request, commit, issue, snippet (mentionable_name, humanized). */
  name: string;
  url: string;
  title: string;
  /** !3, a short sha: what the all_details comment names. */
  ref: string;
  branch?: string;
}

/** One delivery's work on Jira, built by the worker from the event. */
export interface JiraMessage {
  /** Each with the event flag that allows it (commit_events, merge_requests_events; none for issues and snippets). */
  mentions: { key: string; entity: MentionEntity; gate: "commit_events" | "merge_requests_events" | null }[];
  /** Issues to transition, solved by this commit (a merge request's head, a pushed commit). */
  closes: { key: string; commitId: string; commitUrl: string }[];
  /** Who mentioned them (the comment's user link), the project, and the base URL of the GitLab icon. */
  user: { name: string; url: string };
  project: { name: string; url: string };
  baseUrl: string;
}

const link = (title: string, url: string) => `[${title}|${url}]`;

/** Whether closing issues transitions them (issue_transition_enabled?): automatically, or by the configured ids. */
const transitionIds = (properties: Record<string, unknown>) => String(properties.jira_issue_transition_id ?? "").match(/\d+/g) ?? [];
const transitionEnabled = (properties: Record<string, unknown>) => properties.jira_issue_transition_automatic === true || transitionIds(properties).length > 0;

/**
 * What the integration does of a message: the mentions its event flags allow (can_cross_reference?),
 * and the closings when it transitions issues (closings are not gated by the flags).
 */
export const applicable = (m: JiraMessage, flags: Record<string, boolean>, properties: Record<string, unknown>): JiraMessage => ({
  ...m,
  mentions: m.mentions.filter((x) => x.gate === null || flags[x.gate]),
  closes: transitionEnabled(properties) ? m.closes : [],
});
export const hasWork = (m: JiraMessage) => m.mentions.length > 0 || m.closes.length > 0;

/** The cross-reference comment (comment_message, standard detail): who mentioned it, in what, where, quoting its title. */
export function commentBody(m: JiraMessage, entity: MentionEntity): string {
  const branch = entity.branch ? ` on branch ${link(entity.branch, `${m.project.url}/-/tree/${entity.branch}`)}` : "";
  return `${link(m.user.name, m.user.url)} mentioned this issue in ${link(`a ${entity.name}`, entity.url)} of ${link(m.project.name, m.project.url)}${branch}:{quote}${entity.title.replace(/\n+$/, "")}{quote}`;
}

/** build_remote_link_props: GitLab's remote link object. */
export function remoteLink(baseUrl: string, url: string, title: string, resolved = false) {
  return {
    GlobalID: "GitLab",
    relationship: "mentioned on",
    object: { url, title, status: { resolved }, icon: { title: "GitLab", url16x16: `${baseUrl}/favicon.ico` } },
  };
}

/** The request headers of the integration's credentials: Basic (username and password or API token), or a Jira personal access token. */
export function authHeaders(properties: Record<string, unknown>, password: string): Record<string, string> {
  if (Number(properties.jira_auth_type ?? 0) === 1) return { authorization: `Bearer ${password}` };
  const username = String(properties.username ?? "").trim();
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`, cookie: "OBBasicAuth=fromDialog" };
}

/** Where the REST API is: api_url, else url, without a trailing slash. */
export const clientUrl = (properties: Record<string, unknown>) => String((typeof properties.api_url === "string" && properties.api_url.trim()) || properties.url || "").replace(/\/+$/, "");

/** One REST call: its status and parsed JSON body (null when none or not JSON). */
export type JiraCall = (method: "GET" | "POST" | "PUT", path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** A REST call answered with a status the delivery must be retried for (5xx, 401, 429…). */
export class JiraError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const ok = (status: number) => status >= 200 && status < 300;
async function expect2xx(call: JiraCall, method: "GET" | "POST" | "PUT", path: string, body?: unknown) {
  const res = await call(method, path, body);
  if (!ok(res.status)) throw new JiraError(`${method} ${path.replace(/\?.*/, "")}: HTTP ${res.status}`, res.status);
  return res;
}

/** find_issue: the issue, or null when Jira has none by that key (404). */
async function findIssue(call: JiraCall, key: string, transitions = false): Promise<{ id: string; key: string; fields?: any; transitions?: any[] } | null> {
  const res = await call("GET", `/rest/api/2/issue/${encodeURIComponent(key)}${transitions ? "?expand=transitions" : ""}`);
  if (res.status === 404) return null;
  if (!ok(res.status)) throw new JiraError(`GET issue: HTTP ${res.status}`, res.status);
  return res.body;
}

/**
 * send_message: the remote link pointing at `url` is updated if the issue has one (then no new
 * comment: the entity was linked before), else the comment (when comment_on_event_enabled) and a
 * new link are posted.
 */
async function sendMessage(call: JiraCall, issueId: string, comment: string, link: ReturnType<typeof remoteLink>, commentOnEvent: boolean) {
  const base = `/rest/api/2/issue/${encodeURIComponent(issueId)}`;
  const links = (await expect2xx(call, "GET", `${base}/remotelink`)).body;
  const existing = Array.isArray(links) ? links.find((l: any) => l?.object?.url === link.object.url) : undefined;
  if (existing) return expect2xx(call, "PUT", `${base}/remotelink/${encodeURIComponent(String(existing.id))}`, link);
  if (commentOnEvent) await expect2xx(call, "POST", `${base}/comment`, { body: comment });
  return expect2xx(call, "POST", `${base}/remotelink`, link);
}

const resolved = (issue: { fields?: any } | null) => Boolean(issue?.fields?.resolution);

/**
 * Carries a delivery's work out on Jira: each mention (create_cross_reference_note: skipped when the
 * issue does not exist or already has the comment), then each closing (close_issue: the automatic
 * transition to a "done" status, or the configured transition ids in order, stopping at the first
 * refused; then, once resolved, the "solved" comment and a resolved remote link).
 */
export async function deliverToJira(call: JiraCall, properties: Record<string, unknown>, commentOnEvent: boolean, m: JiraMessage): Promise<void> {
  for (const { key, entity } of m.mentions) {
    const issue = await findIssue(call, key);
    if (!issue) continue;
    const body = commentBody(m, entity);
    const comments: { body?: string }[] = issue.fields?.comment?.comments ?? [];
    if (comments.some((c) => typeof c.body === "string" && c.body.includes(body))) continue;
    await sendMessage(call, issue.id, body, remoteLink(m.baseUrl, entity.url, `${entity.name[0].toUpperCase()}${entity.name.slice(1)} - ${entity.title}`), commentOnEvent);
  }
  if (!transitionEnabled(properties)) return;
  const automatic = properties.jira_issue_transition_automatic === true;
  const ids = transitionIds(properties);
  for (const close of m.closes) {
    const issue = await findIssue(call, close.key, automatic);
    if (!issue || resolved(issue)) continue;
    const base = `/rest/api/2/issue/${encodeURIComponent(issue.id)}`;
    let transitioned: boolean;
    if (automatic) {
      const done = (issue.transitions ?? []).find((t: any) => t?.to?.statusCategory?.key === "done");
      transitioned = done !== undefined && ok((await call("POST", `${base}/transitions`, { transition: { id: String(done.id) } })).status);
    } else {
      transitioned = true;
      for (const id of ids) {
        if (!ok((await call("POST", `${base}/transitions`, { transition: { id } })).status)) {
          transitioned = false;
          break;
        }
      }
    }
    if (!transitioned) continue;
    const after = await findIssue(call, issue.key);
    if (!after || !resolved(after)) continue;
    await sendMessage(call, after.id, `Issue solved with ${link(close.commitId, close.commitUrl)}.`, remoteLink(m.baseUrl, close.commitUrl, `Solved by commit ${close.commitId}.`, true), commentOnEvent);
  }
}
