import type { EventKind } from "@collab/integrations-contract";
import type { Caller } from "../deliveries/targets";
import { enrich, labelsOf } from "./enrich";
import { describeHookEvent } from "./events";

/**
 * The label filter of chat notifiers (GitLab's ChatNotification#notify_label?):
 * `labels_to_be_notified` (comma-separated titles, `~` ignored) on issue, merge request and note
 * events; `labels_to_be_notified_behavior` match_any (default) or match_all. With a filter set,
 * an event whose object carries no label (a note on a commit or snippet) is not notified.
 */
const FILTERED: ReadonlySet<EventKind> = new Set<EventKind>(["issues_events", "confidential_issues_events", "merge_requests_events", "note_events", "confidential_note_events"]);

/** The titles a notifier's `labels_to_be_notified` names. */
export const labelsToBeNotified = (properties: Record<string, unknown>): string[] =>
  typeof properties.labels_to_be_notified === "string"
    ? properties.labels_to_be_notified.replace(/~/g, "").split(",").map((t) => t.trim()).filter(Boolean)
    : [];

/** Whether labels with these titles pass the filter. */
export function labelsMatch(wanted: readonly string[], titles: readonly string[], behavior: unknown): boolean {
  if (!titles.length) return false;
  const matching = wanted.filter((t) => titles.includes(t));
  return behavior === "match_all" ? matching.length === wanted.length : matching.length > 0;
}

/** Whether a chat notifier with these properties reports the event, as its label filter decides (the labels read as they are now). */
export async function labelsNotified(broker: Caller, properties: Record<string, unknown>, kind: EventKind | null, eventName: string, payload: unknown): Promise<boolean> {
  const wanted = labelsToBeNotified(properties);
  if (!wanted.length || kind === null || !FILTERED.has(kind)) return true;
  const refs = describeHookEvent(eventName, payload)?.refs;
  const issueIds = refs?.issueIds ?? [];
  const mergeRequestIds = refs?.mergeRequestIds ?? [];
  if (!issueIds.length && !mergeRequestIds.length) return false;
  const e = await enrich(broker, { issueIds, mergeRequestIds });
  const labelIds = [...issueIds.flatMap((id) => e.issues.get(id)?.label_ids ?? []), ...mergeRequestIds.flatMap((id) => e.mergeRequests.get(id)?.label_ids ?? [])];
  return labelsMatch(wanted, labelsOf(e, labelIds).map((l) => l.title), properties.labels_to_be_notified_behavior);
}
