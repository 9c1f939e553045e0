/** The params of the epics routes (GitLab's ee/lib/api/epics.rb). */
import { gBool, gDate, gDateTime, gEnum, gId, gInt, gSort, gString, gStringArray, labelsFilter, paginationParams } from "@collab/core";
import { z } from "zod";

export const EPIC_ORDER_BY = ["created_at", "updated_at", "title"] as const;

/** GET /groups/:id/epics. */
export const ListEpicsParams = z
  .object({
    ...paginationParams,
    id: gString(),
    author_id: gInt().optional(),
    author_username: gString().optional(),
    labels: labelsFilter().optional(),
    with_labels_details: gBool().default(false),
    order_by: gEnum(EPIC_ORDER_BY).default("created_at"),
    sort: gSort("desc"),
    search: gString().optional(),
    state: gEnum(["opened", "closed", "all"] as const).default("all"),
    created_after: gDateTime().optional(),
    created_before: gDateTime().optional(),
    updated_after: gDateTime().optional(),
    updated_before: gDateTime().optional(),
    include_ancestor_groups: gBool().default(false),
    include_descendant_groups: gBool().default(true),
    confidential: gBool().optional(),
  })
  .superRefine((v, c) => {
    if (v.author_id !== undefined && v.author_username !== undefined) c.addIssue({ code: "custom", path: [], message: "author_id, author_username are mutually exclusive" });
  });
export type ListEpicsParams = z.output<typeof ListEpicsParams>;

/** An epic by its group and iid. */
export const EpicRefParams = z.object({ id: gString(), epic_iid: gInt() });
export type EpicRefParams = z.output<typeof EpicRefParams>;

/** "" and null clear a date. */
const clearableDate = () => z.preprocess((v) => (v === "" ? null : v), gDate().nullable()).optional();

const epicFields = {
  description: gString().optional(),
  /** Checked (and named colours turned to hex) with the title, as a model validation. */
  color: gString().optional(),
  confidential: gBool().optional(),
  labels: z.preprocess((v) => (v === null ? "" : v), gStringArray()).optional(),
  start_date_is_fixed: gBool().optional(),
  start_date_fixed: clearableDate(),
  due_date_is_fixed: gBool().optional(),
  due_date_fixed: clearableDate(),
  /** The parent epic's global id (0 or empty: none). */
  parent_id: z.preprocess((v) => (v === "" || v === 0 || v === "0" ? null : v), gId().nullable()).optional(),
  /** GitLab's older names of start_date_fixed and due_date_fixed (see fixedDates). */
  start_date: clearableDate(),
  end_date: clearableDate(),
};

/** The fixed dates a write sets, the newer names winning over the older. */
export function fixedDates(p: { start_date?: string | null; end_date?: string | null; start_date_fixed?: string | null; due_date_fixed?: string | null }) {
  return { start: p.start_date_fixed !== undefined ? p.start_date_fixed : p.start_date, due: p.due_date_fixed !== undefined ? p.due_date_fixed : p.end_date };
}

/** POST /groups/:id/epics. */
export const CreateEpicParams = z.object({ id: gString(), title: gString(), created_at: gDateTime().optional(), ...epicFields });
export type CreateEpicParams = z.output<typeof CreateEpicParams>;

const UPDATE_KEYS = ["add_labels", "confidential", "description", "due_date_fixed", "due_date_is_fixed", "labels", "parent_id", "remove_labels", "start_date_fixed", "start_date_is_fixed", "state_event", "title", "updated_at", "color"] as const;

/** PUT /groups/:id/epics/:epic_iid: at least one field. */
export const UpdateEpicParams = z
    .object({
      id: gString(),
      epic_iid: gInt(),
      title: gString().optional(),
      add_labels: gStringArray().optional(),
      remove_labels: gStringArray().optional(),
      state_event: gEnum(["close", "reopen"] as const).optional(),
      updated_at: gDateTime().optional(),
      ...epicFields,
    })
    .superRefine((v, c) => {
      if (![...UPDATE_KEYS, "start_date", "end_date"].some((k) => (v as Record<string, unknown>)[k] !== undefined))
        c.addIssue({ code: "custom", path: [], message: `${UPDATE_KEYS.join(", ")} are missing, at least one parameter must be provided` });
    });
export type UpdateEpicParams = z.output<typeof UpdateEpicParams>;

/** …/epics/:epic_iid/epics/:child_epic_id: the child by its global id (iids clash across groups). */
export const ChildEpicParams = EpicRefParams.extend({ child_epic_id: gInt() });
export type ChildEpicParams = z.output<typeof ChildEpicParams>;

/** POST …/epics/:epic_iid/epics: a new child; confidential as its parent unless said. */
export const CreateChildEpicParams = EpicRefParams.extend({ title: gString(), confidential: gBool().optional() });
export type CreateChildEpicParams = z.output<typeof CreateChildEpicParams>;

/** GET …/epics/:epic_iid/issues: a page of the epic's issues. */
export const ListEpicIssuesParams = EpicRefParams.extend(paginationParams);
export type ListEpicIssuesParams = z.output<typeof ListEpicIssuesParams>;

/** POST …/epics/:epic_iid/issues/:issue_id: the issue by its global id. */
export const AssignEpicIssueParams = EpicRefParams.extend({ issue_id: gInt() });
export type AssignEpicIssueParams = z.output<typeof AssignEpicIssueParams>;

/** DELETE …/epics/:epic_iid/issues/:epic_issue_id: the association by its id, looked up inside the epic. */
export const EpicIssueRefParams = EpicRefParams.extend({ epic_issue_id: gInt() });
export type EpicIssueRefParams = z.output<typeof EpicIssueRefParams>;

/**
 * PUT …/epics/:epic_iid/issues/:epic_issue_id: places the association between two others of the
 * epic (ids of associations, either may be left out) and answers a page of the list.
 */
export const ReorderEpicIssueParams = EpicIssueRefParams.extend({ move_before_id: gInt().optional(), move_after_id: gInt().optional(), ...paginationParams });
export type ReorderEpicIssueParams = z.output<typeof ReorderEpicIssueParams>;
