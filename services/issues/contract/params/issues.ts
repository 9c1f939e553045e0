/** The params of the issues route actions (moved from the service's api/issues.params.ts). */
import { exclusivePair, gBool, intOrSentinel, labelsFilter, normaliseSentinel, gDate, gDateTime, gEnum, gId, gInt, gIntArray, gSort, gString, gStringArray, paginationParams } from "@collab/core";
import { z } from "zod";

export const ISSUE_TYPES = ["issue", "incident", "test_case", "task"] as const;
export const HEALTH_STATUSES = ["on_track", "needs_attention", "at_risk"] as const;
export const ORDER_BY = ["created_at", "due_date", "label_priority", "milestone_due", "popularity", "priority", "relative_position", "title", "updated_at", "weight"] as const;
export const DUE_DATE_FILTERS = ["0", "any", "today", "tomorrow", "overdue", "week", "month", "next_month_and_previous_two_weeks", ""] as const;

const sentinel = normaliseSentinel;
const labelsParam = labelsFilter;

/** Filters GitLab accepts inside not[...]. */
const NotParams = z.object({
  labels: gStringArray().optional(),
  milestone: gString().optional(),
  milestone_id: z.preprocess(sentinel, z.union([z.literal("None"), z.literal("Any"), z.literal("Upcoming"), z.literal("Started"), gString()])).optional(),
  iids: gIntArray().optional(),
  author_id: gInt().optional(),
  author_username: gString().optional(),
  assignee_id: intOrSentinel().optional(),
  assignee_username: gStringArray().optional(),
  weight: intOrSentinel().optional(),
  iteration_id: intOrSentinel().optional(),
  iteration_title: gString().optional(),
  health_status: gString().optional(),
  epic_id: intOrSentinel().optional(),
  my_reaction_emoji: gString().optional(),
});
export type NotParams = z.output<typeof NotParams>;

const exclusive = exclusivePair;

export const issueListShape = {
  ...paginationParams,
  state: gEnum(["opened", "closed", "all"] as const).default("all"),
  labels: labelsParam().optional(),
  with_labels_details: gBool().default(false),
  milestone: z.preprocess(sentinel, gString()).optional(),
  milestone_id: z.preprocess((v) => (typeof v === "string" && /^(upcoming|started)$/i.test(v) ? v[0].toUpperCase() + v.slice(1).toLowerCase() : sentinel(v)), gEnum(["None", "Any", "Upcoming", "Started"] as const)).optional(),
  iids: gIntArray().optional(),
  search: gString().optional(),
  in: gString()
    .refine((s) => s.split(",").every((p) => ["title", "description"].includes(p.trim())), { error: "does not have a valid value" })
    .optional(),
  author_id: intOrSentinel().optional(),
  author_username: gString().optional(),
  assignee_id: intOrSentinel().optional(),
  assignee_username: gStringArray().optional(),
  created_after: gDateTime().optional(),
  created_before: gDateTime().optional(),
  updated_after: gDateTime().optional(),
  updated_before: gDateTime().optional(),
  confidential: gBool().optional(),
  my_reaction_emoji: z.preprocess(sentinel, gString()).optional(),
  scope: z.preprocess((v) => (typeof v === "string" ? v.replace(/-/g, "_") : v), gEnum(["created_by_me", "assigned_to_me", "all"] as const)).optional(),
  order_by: gEnum(ORDER_BY).default("created_at"),
  sort: gSort("desc"),
  due_date: gEnum(DUE_DATE_FILTERS).optional(),
  issue_type: gEnum(ISSUE_TYPES).optional(),
  non_archived: gBool().default(true),
  closed_by_id: gInt().optional(),
  not: NotParams.optional(),
  weight: intOrSentinel().optional(),
  epic_id: intOrSentinel().optional(),
  health_status: z.preprocess(sentinel, z.union([z.literal("None"), z.literal("Any"), gEnum(HEALTH_STATUSES)])).optional(),
  iteration_id: intOrSentinel().optional(),
  iteration_title: gString().optional(),
};

/** The filters GitLab declares mutually exclusive, on the list and its statistics alike. */
const exclusiveFilters = <T extends z.ZodObject>(schema: T) =>
  schema
    .superRefine(exclusive("assignee_id", "assignee_username"))
    .superRefine(exclusive("author_id", "author_username"))
    .superRefine(exclusive("milestone", "milestone_id"))
    .superRefine(exclusive("iteration_id", "iteration_title"));

export const ListIssuesParams = exclusiveFilters(z.object({ ...issueListShape, id: gString().optional() }));
export type ListIssuesParams = z.output<typeof ListIssuesParams>;

/** The filters GitLab's issues_stats_params declare: the list's, less its state, order, page and per-page extras. */
const STATISTICS_FILTERS = [
  "labels", "milestone", "milestone_id", "iids", "search", "in", "author_id", "author_username", "assignee_id", "assignee_username",
  "created_after", "created_before", "updated_after", "updated_before", "not", "scope", "my_reaction_emoji", "confidential",
  "weight", "epic_id", "health_status", "iteration_id", "iteration_title",
] as const satisfies readonly (keyof typeof issueListShape)[];

const statisticsShape = Object.fromEntries(STATISTICS_FILTERS.map((k) => [k, issueListShape[k]])) as Pick<typeof issueListShape, (typeof STATISTICS_FILTERS)[number]>;

/**
 * GET /issues_statistics, /groups/:id/issues_statistics, /projects/:id/issues_statistics: the issue
 * list's filters (the same schemas, so the same validation), counted by state.
 */
export const IssuesStatisticsParams = exclusiveFilters(z.object({ ...statisticsShape, id: gString().optional() }));
export type IssuesStatisticsParams = z.output<typeof IssuesStatisticsParams>;

/** What the statistics routes answer. */
export const IssuesStatisticsSchema = z.object({
  statistics: z.object({ counts: z.object({ all: z.number().int(), closed: z.number().int(), opened: z.number().int() }) }),
});

export const IssueRefParams = z.object({ id: gString(), issue_iid: gInt() });

/** GET /issues/:id: an issue by its global id. */
export const IssueByIdParams = z.object({ id: z.coerce.number().int().positive() });

/** POST …/subscribe and …/unsubscribe (the route fixes `subscribed`). */
export const SubscribeIssueParams = IssueRefParams.extend({ subscribed: z.boolean() });

/** Grape's `allow_blank: false` on a DateTime: "" and null answer "<name> is empty". */
const nonBlankDateTime = () =>
  z.unknown().transform((v, c) => {
    if (v === null || (typeof v === "string" && v.trim() === "")) {
      c.addIssue({ code: "custom", message: "is empty" });
      return z.NEVER;
    }
    const parsed = gDateTime().safeParse(v);
    if (!parsed.success) {
      c.addIssue({ code: "custom", message: "is invalid" });
      return z.NEVER;
    }
    return parsed.data;
  });

/** milestone_id / assignee_ids: 0 or empty means "none". */
const zeroOrEmptyToNull = (v: unknown) => (v === "" || v === 0 || v === "0" || v === null ? null : v);

const issueFields = {
  // Its length (1,048,576) is a model validation, checked with the title in domain/issues.
  description: gString().optional(),
  confidential: gBool().optional(),
  assignee_ids: z.preprocess((v) => (v === "" || v === null ? [] : v), gIntArray()).optional(),
  assignee_id: z.preprocess(zeroOrEmptyToNull, gInt().nullable()).optional(),
  milestone_id: z.preprocess(zeroOrEmptyToNull, gInt().nullable()).optional(),
  labels: z.preprocess((v) => (v === null ? "" : v), gStringArray()).optional(),
  add_labels: gStringArray().optional(),
  remove_labels: gStringArray().optional(),
  due_date: z.preprocess((v) => (v === "" ? null : v), gDate().nullable()).optional(),
  discussion_locked: gBool().optional(),
  issue_type: gEnum(ISSUE_TYPES).optional(),
  weight: z.preprocess((v) => (v === "" ? null : v), gInt().refine((n) => n >= 0, { error: "does not have a valid value" }).nullable()).optional(),
  epic_id: z.preprocess(zeroOrEmptyToNull, gInt().nullable()).optional(),
  epic_iid: z.preprocess(zeroOrEmptyToNull, gInt().nullable()).optional(),
  health_status: z.preprocess((v) => (v === "" ? null : v), gEnum(HEALTH_STATUSES).nullable()).optional(),
  iteration_id: z.preprocess(zeroOrEmptyToNull, gInt().nullable()).optional(),
};

export const CreateIssueParams = z
  .object({
    id: gString(),
    title: gString(),
    created_at: gDateTime().optional(),
    iid: gId().optional(),
    ...issueFields,
  })
  .superRefine(exclusive("assignee_id", "assignee_ids"))
  .superRefine(exclusive("epic_id", "epic_iid"));
export type CreateIssueParams = z.output<typeof CreateIssueParams>;

const UPDATE_KEYS = ["assignee_id", "assignee_ids", "confidential", "created_at", "description", "discussion_locked", "due_date", "issue_type", "labels", "milestone_id", "state_event", "title", "add_labels", "remove_labels", "weight", "epic_id", "epic_iid", "health_status", "iteration_id", "updated_at"] as const;

export const UpdateIssueParams = z
  .object({
    id: gString(),
    issue_iid: gInt(),
    title: gString().optional(),
    state_event: gEnum(["close", "reopen"] as const).optional(),
    updated_at: nonBlankDateTime().optional(),
    created_at: gDateTime().optional(),
    ...issueFields,
  })
  .superRefine(exclusive("assignee_id", "assignee_ids"))
  .superRefine(exclusive("epic_id", "epic_iid"))
  .superRefine((v, c) => {
    if (!UPDATE_KEYS.some((k) => (v as Record<string, unknown>)[k] !== undefined))
      c.addIssue({
        code: "custom",
        path: [],
        message: "assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, issue_type, labels, milestone_id, state_event, title are missing, at least one parameter must be provided",
      });
  });
export type UpdateIssueParams = z.output<typeof UpdateIssueParams>;

export const ReorderIssueParams = z
  .object({ id: gString(), issue_iid: gInt(), move_after_id: gInt().optional(), move_before_id: gInt().optional() })
  .superRefine((v, c) => {
    if (v.move_after_id === undefined && v.move_before_id === undefined)
      c.addIssue({ code: "custom", path: [], message: "move_after_id, move_before_id are missing, at least one parameter must be provided" });
  });

export const MoveIssueParams = z.object({ id: gString(), issue_iid: gInt(), to_project_id: gInt() });
export type MoveIssueParams = z.output<typeof MoveIssueParams>;
export const CloneIssueParams = MoveIssueParams.extend({ with_notes: gBool().default(false) });
export type CloneIssueParams = z.output<typeof CloneIssueParams>;
