import { issuableHookAttrsShape } from "@collab/core";
import { z } from "zod";

const int = () => z.number().int();

/**
 * A merge request as GitLab's webhooks present it (Gitlab::HookData::MergeRequestBuilder), with
 * `label_ids` for the caller to show its labels (namespaces owns them).
 */
export const MergeRequestHookAttrsSchema = z.object({
  id: int(),
  iid: int(),
  title: z.string(),
  description: z.string().nullable(),
  author_id: int(),
  assignee_ids: z.array(int()),
  assignee_id: int().nullable(),
  reviewer_ids: z.array(int()),
  source_branch: z.string(),
  target_branch: z.string(),
  source_project_id: int(),
  target_project_id: int(),
  state: z.string(),
  state_id: int(),
  draft: z.boolean(),
  work_in_progress: z.boolean(),
  milestone_id: int().nullable(),
  discussion_locked: z.boolean().nullable(),
  merge_commit_sha: z.string().nullable(),
  merge_user_id: int().nullable(),
  merge_when_pipeline_succeeds: z.boolean(),
  head_pipeline_id: int().nullable(),
  prepared_at: z.string().nullable(),
  ...issuableHookAttrsShape(),
  label_ids: z.array(int()),
});
export type MergeRequestHookAttrs = z.output<typeof MergeRequestHookAttrsSchema>;
