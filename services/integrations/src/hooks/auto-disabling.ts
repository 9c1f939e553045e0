import type { WebHookRow } from "../db/schema";

/**
 * GitLab's WebHooks::AutoDisabling: a hook failing with a server error or no answer backs off (its
 * 4th failure in a row disables it for a minute, doubling with each further one, up to a day); a
 * hook failing with client errors (4xx) is disabled for good once it failed more than 3 times in a
 * row, until edited or a test succeeds. A success clears it all.
 */
export const FAILURE_THRESHOLD = 3;
export const MAX_FAILURES = 100;
const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 86_400_000;
const MAX_BACKOFF_COUNT = 11;

type State = Pick<WebHookRow, "recentFailures" | "backoffCount" | "disabledUntil">;

export const temporarilyDisabled = (h: State, now = new Date()) => h.disabledUntil !== null && h.disabledUntil >= now;
export const permanentlyDisabled = (h: State) => h.recentFailures > FAILURE_THRESHOLD && h.disabledUntil === null;
export const executable = (h: State, now = new Date()) => !temporarilyDisabled(h, now) && !permanentlyDisabled(h);

export function alertStatus(h: State, now = new Date()): "executable" | "disabled" | "temporarily_disabled" {
  if (temporarilyDisabled(h, now)) return "temporarily_disabled";
  return permanentlyDisabled(h) ? "disabled" : "executable";
}

const nextBackoffMs = (backoffCount: number) =>
  backoffCount >= MAX_BACKOFF_COUNT ? MAX_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, Math.max(INITIAL_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** backoffCount));

/** How an execution ended, as WebHookService sorts responses. */
export type Category = "ok" | "failed" | "error";
export const categoryOf = (status: number | null): Category => (status === null || status >= 500 ? "error" : status >= 200 && status < 300 ? "ok" : "failed");

/** The hook's state after an execution (null: unchanged). */
export function stateAfter(h: State, category: Category, now = new Date()): State | null {
  if (category === "ok") return h.recentFailures === 0 && h.disabledUntil === null && h.backoffCount === 0 ? null : { recentFailures: 0, backoffCount: 0, disabledUntil: null };
  if (category === "failed") {
    if (h.recentFailures >= MAX_FAILURES) return null;
    return { recentFailures: h.recentFailures + 1, backoffCount: 0, disabledUntil: null };
  }
  if (permanentlyDisabled(h) || (h.backoffCount >= MAX_FAILURES && temporarilyDisabled(h, now))) return null;
  const recentFailures = Math.min(h.recentFailures + 1, MAX_FAILURES);
  if (h.recentFailures < FAILURE_THRESHOLD) return { recentFailures, backoffCount: h.backoffCount, disabledUntil: h.disabledUntil };
  return { recentFailures, backoffCount: h.backoffCount + 1, disabledUntil: new Date(now.getTime() + nextBackoffMs(h.backoffCount)) };
}
