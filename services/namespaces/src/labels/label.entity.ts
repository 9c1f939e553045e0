import type { LabelRow } from "../db/schema";
import { textColorFor } from "@collab/core";

/** Label descriptions render through GitLab's single-line Markdown pipeline; here: escaped text. */
export const labelDescriptionHtml = (description: string | null): string | null =>
  description === null
    ? null
    : description.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** LabelBasic: what issues and merge requests embed with `with_labels_details`. */
export const presentLabelBasic = (l: LabelRow) => ({
  id: l.id,
  name: l.title,
  color: l.color,
  text_color: textColorFor(l.color),
  description: l.description,
  description_html: labelDescriptionHtml(l.description),
});

/** A label as webhooks show it (GitLab's Label#hook_attrs; no label here is a template). */
export const presentLabelHookAttrs = (l: LabelRow) => ({
  id: l.id,
  title: l.title,
  color: l.color,
  project_id: l.projectId,
  created_at: l.createdAt.toISOString(),
  updated_at: l.updatedAt.toISOString(),
  template: false,
  description: l.description,
  type: l.projectId !== null ? ("ProjectLabel" as const) : ("GroupLabel" as const),
  group_id: l.groupId,
});

/** A label as other services' pages need it: LabelBasic with its priority (project labels only). */
export const presentLabelLookup = (l: LabelRow) => ({ ...presentLabelBasic(l), priority: l.projectId !== null ? l.priority : null });

export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

/** Counts until issues and merge requests exist: nothing carries a label yet. */
export const NO_COUNTS: LabelCounts = { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 };

/**
 * Entities::ProjectLabel (parent "project": adds priority and is_project_label) or
 * Entities::GroupLabel (parent "group"). Counts only when the list asked `with_counts`.
 * A group label seen from a project has no priority of its own here (per-project priorities
 * of group labels are not modelled).
 */
export const presentLabel = (l: LabelRow, parent: "project" | "group", counts?: LabelCounts) => ({
  ...presentLabelBasic(l),
  ...(counts ? { ...counts } : {}),
  subscribed: false,
  ...(parent === "project" ? { priority: l.projectId !== null ? l.priority : null, is_project_label: l.projectId !== null } : {}),
});
