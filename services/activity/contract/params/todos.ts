import { gEnum, gId, gInt, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** Todo::ACTION_NAMES: the `action` filter's values (Grape rejects any other). */
export const TODO_ACTIONS = [
  "assigned",
  "mentioned",
  "build_failed",
  "marked",
  "approval_required",
  "unmergeable",
  "directly_addressed",
  "merge_train_removed",
  "review_requested",
  "member_access_requested",
  "review_submitted",
  "okr_checkin_requested",
  "added_approver",
  "ssh_key_expired",
  "ssh_key_expiring_soon",
] as const;
export type TodoAction = (typeof TODO_ACTIONS)[number];

/** TodosFinder::TODO_TYPES: the `type` filter's values. */
export const TODO_TYPES = ["Issue", "WorkItem", "MergeRequest", "Commit", "Epic", "DesignManagement::Design", "AlertManagement::Alert", "Namespace", "Project", "Key", "WikiPage::Meta"] as const;

/** GET /todos. */
export const ListTodosParams = z.object({
  action: gEnum(TODO_ACTIONS).optional(),
  author_id: gInt().optional(),
  project_id: gInt().optional(),
  group_id: gInt().optional(),
  state: gEnum(["pending", "done"]).optional(),
  type: gEnum(TODO_TYPES).optional(),
  ...paginationParams,
});
export type TodoFilters = z.infer<typeof ListTodosParams>;

/** POST /todos/:id/mark_as_done. */
export const TodoRefParams = z.object({ id: gId() });

/** POST /projects/:id/issues/:issue_iid/todo. */
export const CreateIssueTodoParams = z.object({ id: gString(), issue_iid: gInt() });
/** POST /projects/:id/merge_requests/:merge_request_iid/todo. */
export const CreateMergeRequestTodoParams = z.object({ id: gString(), merge_request_iid: gInt() });
