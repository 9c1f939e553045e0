import { z } from "zod";
import { humanDuration } from "./time-stats";

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

const int = () => z.number().int();

/** What GitLab's issue and merge request hook data share: time tracking and the edit stamps. */
export const issuableHookAttrsShape = () => ({
  time_estimate: int(),
  total_time_spent: int(),
  time_change: int(),
  human_time_estimate: z.string().nullable(),
  human_total_time_spent: z.string().nullable(),
  human_time_change: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  updated_by_id: int().nullable(),
  last_edited_at: z.string().nullable(),
  last_edited_by_id: int().nullable(),
});

/** Those shared fields of an issue's or merge request's row (edits are not stamped here: last_edited_* null). */
export const issuableHookAttrs = (r: { timeEstimate: number; totalTimeSpent: number; createdAt: Date; updatedAt: Date; updatedById: number | null }) => ({
  time_estimate: r.timeEstimate,
  total_time_spent: r.totalTimeSpent,
  time_change: 0,
  human_time_estimate: humanDuration(r.timeEstimate),
  human_total_time_spent: humanDuration(r.totalTimeSpent),
  human_time_change: null,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
  updated_by_id: r.updatedById,
  last_edited_at: null,
  last_edited_by_id: null,
});
