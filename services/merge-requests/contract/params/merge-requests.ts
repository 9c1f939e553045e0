/** Params of the merge request routes (list, get, create, update, merge). */
import {
  exclusivePair,
  gBool,
  gDateTime,
  gEnum,
  gInt,
  gIntArray,
  gSort,
  gString,
  gStringArray,
  intOrSentinel,
  labelsFilter,
  normaliseSentinel,
  paginationParams,
  stringOrSentinel,
} from "@collab/core";
import { z } from "zod";

export const ORDER_BY = ["created_at", "label_priority", "milestone_due", "popularity", "priority", "title", "updated_at", "merged_at"] as const;
export const STATES = ["opened", "closed", "locked", "merged", "all"] as const;
const SCOPES = ["created_by_me", "assigned_to_me", "reviews_for_me", "all"] as const;

/** Filters GitLab accepts inside not[...] on merge request lists. */
const NotParams = z.object({
  labels: gStringArray().optional(),
  milestone: stringOrSentinel().optional(),
  author_id: gInt().optional(),
  author_username: gString().optional(),
  assignee_id: intOrSentinel().optional(),
  assignee_username: gStringArray().optional(),
  reviewer_id: intOrSentinel().optional(),
  reviewer_username: gString().optional(),
  my_reaction_emoji: stringOrSentinel().optional(),
});
export type NotParams = z.output<typeof NotParams>;

/** approved_by_ids: up to five user ids, or None / Any (Premium and up). */
const approvedByIds = () =>
  z.preprocess(
    (v) => {
      const s = normaliseSentinel(Array.isArray(v) && v.length === 1 ? v[0] : v);
      return s === "None" || s === "Any" ? s : v;
    },
    z.union([z.literal("None"), z.literal("Any"), gIntArray().refine((a) => a.length <= 5, { error: "does not have a valid value" })], { error: "is invalid" }),
  );
const approverIds = () =>
  z.preprocess((v) => {
    const s = normaliseSentinel(Array.isArray(v) && v.length === 1 ? v[0] : v);
    return s === "None" || s === "Any" ? s : v;
  }, z.union([z.literal("None"), z.literal("Any"), gIntArray()], { error: "is invalid" }));

const yesNo = () => gEnum(["yes", "no"] as const);

export const ListMergeRequestsParams = z
  .object({
    ...paginationParams,
    id: gString().optional(),
    state: gEnum(STATES).default("all"),
    order_by: gEnum(ORDER_BY).default("created_at"),
    sort: gSort("desc"),
    milestone: stringOrSentinel().optional(),
    view: gEnum(["simple"] as const).optional(),
    labels: labelsFilter().optional(),
    with_labels_details: gBool().default(false),
    with_merge_status_recheck: gBool().default(false),
    created_after: gDateTime().optional(),
    created_before: gDateTime().optional(),
    updated_after: gDateTime().optional(),
    updated_before: gDateTime().optional(),
    merged_after: gDateTime().optional(),
    merged_before: gDateTime().optional(),
    deployed_after: gDateTime().optional(),
    deployed_before: gDateTime().optional(),
    environment: gString().optional(),
    scope: z.preprocess((v) => (typeof v === "string" ? v.replace(/-/g, "_") : v), gEnum(SCOPES)).optional(),
    author_id: intOrSentinel().optional(),
    author_username: gString().optional(),
    assignee_id: intOrSentinel().optional(),
    assignee_username: gStringArray().optional(),
    reviewer_id: intOrSentinel().optional(),
    reviewer_username: stringOrSentinel().optional(),
    merge_user_id: gInt().optional(),
    merge_user_username: gString().optional(),
    my_reaction_emoji: stringOrSentinel().optional(),
    source_branch: gString().optional(),
    source_project_id: gInt().optional(),
    target_branch: gString().optional(),
    search: gString().optional(),
    in: gString()
      .refine((s) => s.split(",").every((p) => ["title", "description"].includes(p.trim())), { error: "does not have a valid value" })
      .optional(),
    wip: yesNo().optional(),
    draft: gBool().optional(),
    not: NotParams.optional(),
    iids: gIntArray().optional(),
    non_archived: gBool().default(true),
    approved_by_ids: approvedByIds().optional(),
    approved_by_usernames: gStringArray().optional(),
    approver_ids: approverIds().optional(),
    approved: yesNo().optional(),
  })
  .superRefine(exclusivePair("author_id", "author_username"))
  .superRefine(exclusivePair("assignee_id", "assignee_username"))
  .superRefine(exclusivePair("reviewer_id", "reviewer_username"))
  .superRefine(exclusivePair("merge_user_id", "merge_user_username"))
  .superRefine(exclusivePair("wip", "draft"))
  .superRefine(exclusivePair("approved_by_ids", "approved_by_usernames"));
export type ListMergeRequestsParams = z.output<typeof ListMergeRequestsParams>;

export const MergeRequestRefParams = z.object({ id: gString(), merge_request_iid: gInt() });
/** POST …/subscribe and …/unsubscribe: the route sets `subscribed`. */
export const SubscribeMergeRequestParams = MergeRequestRefParams.extend({ subscribed: z.boolean() });

/** 0, "" or null: none. */
const zeroOrEmptyToNull = (v: unknown) => (v === "" || v === 0 || v === "0" || v === null ? null : v);
const nonBlank = () => gString().refine((s) => s.trim().length > 0, { error: "is empty" });

const writeFields = {
  assignee_id: z.preprocess(zeroOrEmptyToNull, gInt().nullable()).optional(),
  assignee_ids: z.preprocess((v) => (v === "" || v === null ? [] : v), gIntArray()).optional(),
  reviewer_ids: z.preprocess((v) => (v === "" || v === null ? [] : v), gIntArray()).optional(),
  description: gString().optional(),
  labels: z.preprocess((v) => (v === null ? "" : v), gStringArray()).optional(),
  add_labels: gStringArray().optional(),
  remove_labels: gStringArray().optional(),
  milestone_id: z.preprocess(zeroOrEmptyToNull, gInt().nullable()).optional(),
  remove_source_branch: gBool().optional(),
  allow_collaboration: gBool().optional(),
  allow_maintainer_to_push: gBool().optional(),
  squash: gBool().optional(),
  merge_after: z.preprocess((v) => (v === "" ? null : v), gDateTime().nullable()).optional(),
};

export const CreateMergeRequestParams = z
  .object({
    id: gString(),
    title: gString(),
    source_branch: gString(),
    target_branch: gString(),
    target_project_id: gInt().optional(),
    approvals_before_merge: gInt().optional(),
    ...writeFields,
  })
  .superRefine(exclusivePair("assignee_id", "assignee_ids"))
  .superRefine(exclusivePair("allow_collaboration", "allow_maintainer_to_push"));
export type CreateMergeRequestParams = z.output<typeof CreateMergeRequestParams>;

const UPDATE_KEYS = [
  "assignee_id",
  "assignee_ids",
  "reviewer_ids",
  "description",
  "labels",
  "add_labels",
  "remove_labels",
  "milestone_id",
  "remove_source_branch",
  "allow_collaboration",
  "allow_maintainer_to_push",
  "squash",
  "target_branch",
  "title",
  "state_event",
  "discussion_locked",
  "merge_after",
] as const;

export const UpdateMergeRequestParams = z
  .object({
    id: gString(),
    merge_request_iid: gInt(),
    title: gString().optional(),
    target_branch: nonBlank().optional(),
    state_event: gEnum(["close", "reopen"] as const).optional(),
    discussion_locked: gBool().optional(),
    ...writeFields,
  })
  .superRefine(exclusivePair("assignee_id", "assignee_ids"))
  .superRefine(exclusivePair("allow_collaboration", "allow_maintainer_to_push"))
  .superRefine((v, c) => {
    if (!UPDATE_KEYS.some((k) => (v as Record<string, unknown>)[k] !== undefined))
      c.addIssue({ code: "custom", path: [], message: `${UPDATE_KEYS.join(", ")} are missing, at least one parameter must be provided` });
  });
export type UpdateMergeRequestParams = z.output<typeof UpdateMergeRequestParams>;

export const MergeParams = z.object({
  id: gString(),
  merge_request_iid: gInt(),
  merge_commit_message: gString().optional(),
  squash_commit_message: gString().optional(),
  squash: gBool().optional(),
  should_remove_source_branch: gBool().optional(),
  merge_when_pipeline_succeeds: gBool().optional(),
  auto_merge: gBool().optional(),
  sha: gString().optional(),
});
export type MergeParams = z.output<typeof MergeParams>;

/** GET …/commits: a page of the merge request's commits, newest first. */
export const MergeRequestCommitsParams = MergeRequestRefParams.extend({ ...paginationParams });
/** GET …/changes: every file with GitLab's limits (`access_raw_diffs`: none). */
export const MergeRequestChangesParams = MergeRequestRefParams.extend({ access_raw_diffs: gBool().default(false), unidiff: gBool().default(false) });
/** GET …/diffs: a page of the merge request's files. */
export const MergeRequestDiffsParams = MergeRequestRefParams.extend({ ...paginationParams, unidiff: gBool().default(false) });
/** PUT …/rebase. */
export const RebaseParams = MergeRequestRefParams.extend({ skip_ci: gBool().optional() });
