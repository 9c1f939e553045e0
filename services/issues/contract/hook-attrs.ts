import { issuableHookAttrsShape } from "@collab/core";
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
  weight: int().nullable(),
  health_status: z.string().nullable(),
  severity: z.string(),
  type: z.string(),
  closed_at: z.string().nullable(),
  ...issuableHookAttrsShape(),
  label_ids: z.array(int()),
});
export type IssueHookAttrs = z.output<typeof IssueHookAttrsSchema>;
