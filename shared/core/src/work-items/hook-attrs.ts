import { z } from "zod";

/**
 * What webhooks (GitLab's Gitlab::HookData builders) read of issues and merge requests beyond their
 * API entities: state_id, and an edit's `changes` as `{ previous, current }` per field.
 */

/** GitLab's state_id of issues and merge requests. */
export const STATE_IDS: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

/**
 * An edit's changed fields with their values before and after (GitLab's hook `changes`), by hook
 * attribute name: label_ids, assignee_ids and reviewer_ids as id lists (the consumer shows them).
 */
export const ChangeValuesSchema = () => z.record(z.string(), z.object({ previous: z.unknown(), current: z.unknown() }));
export type ChangeValues = Record<string, { previous: unknown; current: unknown }>;

const same = (a: unknown, b: unknown) => {
  const norm = (v: unknown) => (Array.isArray(v) ? [...v].sort() : v instanceof Date ? v.toISOString() : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
};

/** The fields of two snapshots of one object whose values differ, as `{ previous, current }` (dates as ISO strings). */
export function changeValues(before: Record<string, unknown>, after: Record<string, unknown>): ChangeValues {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);
  const out: ChangeValues = {};
  for (const key of Object.keys(after)) if (!same(before[key], after[key])) out[key] = { previous: iso(before[key]), current: iso(after[key]) };
  return out;
}
