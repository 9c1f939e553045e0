/** An issue as the issues API presents it, and the shapes derived from it. */
import { UserRefSchema } from "@collab/accounts-contract";
import { LabelBasicSchema, MilestoneSchema } from "@collab/namespaces-contract";
import { z } from "zod";

const int = () => z.number().int();

/**
 * The epic an issue embeds (GitLab's EpicBaseEntity): `url` is the epic's path; the two human
 * readable fields only when the epic has dates.
 */
export const IssueEpicSchema = z.object({
  id: int(),
  iid: int(),
  title: z.string(),
  url: z.string(),
  group_id: int(),
  human_readable_end_date: z.string().optional(),
  human_readable_timestamp: z.string().optional(),
});
export type IssueEpic = z.output<typeof IssueEpicSchema>;

/** A user as an issue embeds one (author, assignees, closed_by): accounts' UserRef. */
const UserRef = UserRefSchema;
/** GitLab's LabelBasic (with_labels_details), as namespaces answers it. */
const LabelBasic = LabelBasicSchema;

/** An issue as the issues API presents it (services/issues/src/api/issue.entity.ts). */
export const IssueSchema = z.object({
  id: int(),
  iid: int(),
  project_id: int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.string(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  closed_by: UserRef.nullable(),
  labels: z.union([z.array(z.string()), z.array(LabelBasic)]),
  /** namespaces' milestone, as it answers it (or null). */
  milestone: MilestoneSchema.nullable(),
  assignees: z.array(UserRef),
  author: UserRef.nullable(),
  type: z.string(),
  assignee: UserRef.nullable(),
  user_notes_count: int(),
  merge_requests_count: int(),
  upvotes: int(),
  downvotes: int(),
  due_date: z.string().nullable(),
  confidential: z.boolean(),
  discussion_locked: z.boolean().nullable(),
  issue_type: z.string(),
  web_url: z.string(),
  time_stats: z.object({ time_estimate: z.number(), total_time_spent: z.number(), human_time_estimate: z.string().nullable(), human_total_time_spent: z.string().nullable() }),
  task_completion_status: z.object({ count: int(), completed_count: int() }),
  has_tasks: z.boolean(),
  task_status: z.string(),
  _links: z.object({ self: z.string(), notes: z.string(), award_emoji: z.string(), project: z.string(), closed_as_duplicate_of: z.string().nullable() }),
  references: z.object({ short: z.string(), relative: z.string(), full: z.string() }),
  severity: z.string(),
  subscribed: z.boolean().optional(),
  moved_to_id: int().nullable(),
  imported: z.boolean(),
  imported_from: z.string(),
  service_desk_reply_to: z.null(),
  // Premium and up.
  weight: int().nullable().optional(),
  // Premium and up, on a group's project only (GitLab exposes them where epics may exist).
  epic_iid: int().nullable().optional(),
  epic: IssueEpicSchema.nullable().optional(),
  iteration: z.null().optional(),
  blocking_issues_count: int().optional(),
  // Ultimate.
  health_status: z.string().nullable().optional(),
});
export type Issue = z.output<typeof IssueSchema>;

/** GitLab's IssueBasic: the issue without its links, task summary and per-caller or licensed extras. */
export const IssueBasicSchema = IssueSchema.omit({
  has_tasks: true,
  task_status: true,
  _links: true,
  subscribed: true,
  moved_to_id: true,
  imported: true,
  imported_from: true,
  service_desk_reply_to: true,
  severity: true,
  epic_iid: true,
  epic: true,
  iteration: true,
  health_status: true,
});
export type IssueBasic = z.output<typeof IssueBasicSchema>;
