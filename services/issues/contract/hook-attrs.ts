import { z } from "zod";

const int = () => z.number().int();

/**
 * An issue as GitLab's webhooks present it (Gitlab::HookData::IssueBuilder), with `label_ids`
 * for the caller to show its labels (namespaces owns them).
 */
export const IssueHookAttrsSchema = z.object({
  id: int(),
  iid: int(),
  project_id: int(),
  title: z.string(),
  description: z.string().nullable(),
  author_id: int(),
  assignee_ids: z.array(int()),
  assignee_id: int().nullable(),
  milestone_id: int().nullable(),
  state: z.string(),
  state_id: int(),
  confidential: z.boolean(),
  discussion_locked: z.boolean().nullable(),
  due_date: z.string().nullable(),
  moved_to_id: int().nullable(),
  duplicated_to_id: int().nullable(),
  relative_position: int().nullable(),
  time_estimate: int(),
  total_time_spent: int(),
  time_change: int(),
  human_time_estimate: z.string().nullable(),
  human_total_time_spent: z.string().nullable(),
  human_time_change: z.string().nullable(),
  weight: int().nullable(),
  health_status: z.string().nullable(),
  severity: z.string(),
  type: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  updated_by_id: int().nullable(),
  last_edited_at: z.string().nullable(),
  last_edited_by_id: int().nullable(),
  closed_at: z.string().nullable(),
  label_ids: z.array(int()),
});
export type IssueHookAttrs = z.output<typeof IssueHookAttrsSchema>;
