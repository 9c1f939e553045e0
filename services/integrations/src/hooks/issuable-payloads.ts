import { STATE_IDS, type ChangeValues } from "@collab/core";
import type { IssueHookAttrs } from "@collab/issues-contract";
import type { MergeRequestHookAttrs } from "@collab/merge-requests-contract";
import type { Enriched } from "./enrich";
import { labelsOf } from "./enrich";
import { hookProject, hookUser, type HookProject } from "./payloads";

/**
 * The bodies of GitLab's Issue and Merge Request Hooks (Gitlab::HookData::IssuableBuilder with
 * IssueBuilder / MergeRequestBuilder): the object as it is now, its labels, assignees (and
 * reviewers), and `changes` as { previous, current } per field.
 */

/** The project as issuable payloads' deprecated `repository` shows it. */
const issuableRepository = (p: HookProject) => {
  const { name, url, description, homepage } = hookProject(p);
  return { name, url, description, homepage };
};

const users = (e: Enriched, ids: readonly number[]) => ids.map((id) => hookUser(e.users.get(id), id));

/** What an event of an issue or merge request carries (their contracts' payloads, read loosely). */
export interface IssuableEvent {
  id: number;
  iid: number;
  project_id: number;
  actor_id: number;
  title: string;
  changes?: string[];
  change_values?: ChangeValues;
  /** Opened events: the new object's description, assignees and reviewers. */
  description?: string | null;
  assignee_ids?: number[];
  reviewer_ids?: number[];
}

/**
 * What the event itself knew when it happened, laid over the object as read at fan-out (it may have
 * changed since): the title, an opening's description, assignees and reviewers, an edit's new values.
 */
function atEvent(p: IssuableEvent, action: string): Record<string, unknown> {
  const opened = action === "open" ? { description: p.description, assignee_ids: p.assignee_ids, reviewer_ids: p.reviewer_ids } : {};
  const edited = Object.fromEntries(Object.entries(p.change_values ?? {}).map(([k, v]) => [k, v.current]));
  return Object.fromEntries(Object.entries({ title: p.title, ...opened, ...edited }).filter(([, v]) => v !== undefined));
}

/** The fields GitLab reports as set by a creation (its previous_changes after create), when set. */
const OPEN_CHANGE_KEYS = ["author_id", "created_at", "description", "due_date", "id", "iid", "milestone_id", "project_id", "title", "updated_at", "confidential", "discussion_locked", "time_estimate", "weight", "source_branch", "target_branch", "source_project_id", "target_project_id", "draft"];

/**
 * `changes`: an edit's fields with their values (labels, assignees and reviewers shown as hooks show
 * them); a creation's set fields from null; a close or reopen its state_id (and closed_at); an
 * older event without values names its fields with what is known.
 */
function changesOf(action: string, p: IssuableEvent, now: Record<string, unknown> | undefined, e: Enriched): Record<string, unknown> {
  if (p.change_values) {
    const out: Record<string, unknown> = {};
    for (const [field, v] of Object.entries(p.change_values)) {
      const ids = (x: unknown) => (Array.isArray(x) ? (x as number[]) : []);
      if (field === "label_ids") out.labels = { previous: labelsOf(e, ids(v.previous)), current: labelsOf(e, ids(v.current)) };
      else if (field === "assignee_ids") out.assignees = { previous: users(e, ids(v.previous)), current: users(e, ids(v.current)) };
      else if (field === "reviewer_ids") out.reviewers = { previous: users(e, ids(v.previous)), current: users(e, ids(v.current)) };
      else out[field] = v;
    }
    return out;
  }
  if (action === "open" && now)
    return Object.fromEntries(OPEN_CHANGE_KEYS.filter((k) => now[k] !== undefined && now[k] !== null && now[k] !== false && now[k] !== 0).map((k) => [k, { previous: null, current: now[k] }]));
  const stateChange = (from: string, to: string) => ({ state_id: { previous: STATE_IDS[from], current: STATE_IDS[to] } });
  if (action === "close") return { ...stateChange("opened", "closed"), ...(now?.closed_at ? { closed_at: { previous: null, current: now.closed_at } } : {}) };
  if (action === "reopen") return stateChange("closed", "opened");
  if (action === "merge") return stateChange("opened", "merged");
  return Object.fromEntries((p.changes ?? []).map((f) => [f, f === "title" ? { current: p.title } : {}]));
}

/** The state an action leaves the object in: the event's own for a state change (the object may have moved on since). */
const stateAfter = (action: string, now: string | undefined) => (action === "close" ? "closed" : action === "reopen" ? "opened" : action === "merge" ? "merged" : action === "open" ? "opened" : (now ?? "opened"));

/** GitLab's Issue Hook body (`confidential`: the event's, which picks the trigger). */
export function issueHookData(project: HookProject, e: Enriched, p: IssuableEvent & { confidential: boolean }, action: string): Record<string, unknown> {
  const read = e.issues.get(p.id);
  const found = read && ({ ...read, ...atEvent(p, action) } as IssueHookAttrs);
  const { label_ids: labelIds = [], ...now }: Partial<IssueHookAttrs> = found ?? { id: p.id, iid: p.iid, project_id: p.project_id, title: p.title, confidential: p.confidential, assignee_ids: [] };
  const state = stateAfter(action, now.state);
  const labels = labelsOf(e, labelIds);
  const assignees = users(e, now.assignee_ids ?? []);
  return {
    object_kind: "issue",
    event_type: p.confidential ? "confidential_issue" : "issue",
    user: hookUser(e.users.get(p.actor_id), p.actor_id),
    project: hookProject(project),
    object_attributes: { ...now, state, state_id: STATE_IDS[state], labels, url: `${project.web_url}/-/issues/${p.iid}`, action },
    repository: issuableRepository(project),
    ...(assignees.length ? { assignees } : {}),
    labels,
    changes: changesOf(action, p, found, e),
  };
}

/** GitLab's Merge Request Hook body. */
export function mergeRequestHookData(project: HookProject, e: Enriched, p: IssuableEvent & { source_branch?: string; target_branch?: string; state?: string }, action: string): Record<string, unknown> {
  const read = e.mergeRequests.get(p.id);
  const found = read && ({ ...read, ...atEvent(p, action) } as MergeRequestHookAttrs);
  const { label_ids: labelIds = [], ...now }: Partial<MergeRequestHookAttrs> = found ?? {
    id: p.id,
    iid: p.iid,
    title: p.title,
    source_branch: p.source_branch,
    target_branch: p.target_branch,
    source_project_id: p.project_id,
    target_project_id: p.project_id,
    state: p.state,
    assignee_ids: [],
    reviewer_ids: [],
  };
  const state = stateAfter(action, now.state);
  const labels = labelsOf(e, labelIds);
  const assignees = users(e, now.assignee_ids ?? []);
  const reviewers = users(e, now.reviewer_ids ?? []);
  const shown = hookProject(project);
  return {
    object_kind: "merge_request",
    event_type: "merge_request",
    user: hookUser(e.users.get(p.actor_id), p.actor_id),
    project: shown,
    object_attributes: { ...now, state, state_id: STATE_IDS[state], labels, source: shown, target: shown, url: `${project.web_url}/-/merge_requests/${p.iid}`, action },
    repository: issuableRepository(project),
    ...(assignees.length ? { assignees } : {}),
    ...(reviewers.length ? { reviewers } : {}),
    labels,
    changes: changesOf(action, p, found, e),
  };
}

/** An issue or merge request as a note or emoji payload embeds it (its hook attributes with labels), or what the event knew. */
export function embeddedIssuable(e: Enriched, type: string, id: number | null, project: HookProject, known: Record<string, unknown>): Record<string, unknown> {
  const found = id === null ? undefined : type === "Issue" ? e.issues.get(id) : type === "MergeRequest" ? e.mergeRequests.get(id) : undefined;
  if (!found) return known;
  const { label_ids: labelIds, ...now } = found;
  const path = type === "Issue" ? "issues" : "merge_requests";
  return { ...now, labels: labelsOf(e, labelIds), url: `${project.web_url}/-/${path}/${found.iid}` };
}
