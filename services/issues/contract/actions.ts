/** Actions of the issues service other services call (see index.ts). */
import { actionContract, flushContract, noContent, pageOf } from "@collab/core";
import { UserRefSchema } from "@collab/accounts-contract";
import { LabelBasicSchema, MilestoneSchema } from "@collab/namespaces-contract";
import { unresolvableNoteContract } from "@collab/notes-contract";
import { z } from "zod";
import { EpicLinksActions, EpicsActions } from "./epics";
import {
  CloneIssueParams,
  CreateIssueParams,
  IssueByIdParams,
  IssueRefParams,
  ListIssuesParams,
  MoveIssueParams,
  ReorderIssueParams,
  SubscribeIssueParams,
  UpdateIssueParams,
} from "./params/issues";

const int = () => z.number().int();
const ids = () => z.array(int()).max(100_000);
/** An issue by its project and iid, as merge requests reference the issues they close. */
const IssueRef = z.object({ project_id: int(), iid: int() });
const IssueRefs = () => z.array(IssueRef).max(1000);

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
  epic_iid: z.null().optional(),
  epic: z.null().optional(),
  iteration: z.null().optional(),
  blocking_issues_count: int().optional(),
  // Ultimate.
  health_status: z.string().nullable().optional(),
});
export type Issue = z.output<typeof IssueSchema>;

export const IssuesActions = {
  /** Bus only: namespaces empties this node's held project access (see @collab/work-items, projects.ts). */
  accessCache: { flush: flushContract("issues.accessCache.flush") },
  /** Bus only: this node's held user refs are emptied (accounts' user events, see @collab/work-items, users.ts). */
  userRefs: { flush: flushContract("issues.userRefs.flush") },
  /** Bus only: this node's held labels and milestones are emptied (namespaces' events, see @collab/work-items, page-refs.ts). */
  workItemRefs: { flush: flushContract("issues.workItemRefs.flush") },
  /** The issues API's routes (routes.ts). */
  issues: {
    /** GET /issues: the caller's issues (scope), across the projects they may read. */
    listAll: actionContract("issues.issues.listAll", { input: () => ListIssuesParams, output: () => pageOf(IssueSchema), idempotent: true }),
    /** GET /groups/:id/issues. */
    listGroup: actionContract("issues.issues.listGroup", { input: () => ListIssuesParams, output: () => pageOf(IssueSchema), idempotent: true }),
    /** GET /projects/:id/issues. */
    listProject: actionContract("issues.issues.listProject", { input: () => ListIssuesParams, output: () => pageOf(IssueSchema), idempotent: true }),
    /** GET /projects/:id/issues/:issue_iid. */
    get: actionContract("issues.issues.get", { input: () => IssueRefParams, output: () => IssueSchema, idempotent: true }),
    /** GET /issues/:id: by global id, administrators only. */
    getById: actionContract("issues.issues.getById", { input: () => IssueByIdParams, output: () => IssueSchema, idempotent: true }),
    create: actionContract("issues.issues.create", { input: () => CreateIssueParams, output: () => IssueSchema }),
    update: actionContract("issues.issues.update", { input: () => UpdateIssueParams, output: () => IssueSchema }),
    delete: actionContract("issues.issues.delete", { input: () => IssueRefParams, output: noContent }),
    reorder: actionContract("issues.issues.reorder", { input: () => ReorderIssueParams, output: () => IssueSchema }),
    /** POST …/move: the moved copy. */
    move: actionContract("issues.issues.move", { input: () => MoveIssueParams, output: () => IssueSchema }),
    /** POST …/clone: the copy. */
    clone: actionContract("issues.issues.clone", { input: () => CloneIssueParams, output: () => IssueSchema }),
    /** POST …/subscribe and …/unsubscribe (the route sets `subscribed`); 304 when already so. */
    subscribe: actionContract("issues.issues.subscribe", { input: () => SubscribeIssueParams, output: () => IssueSchema }),
  },
  /** The epics API (Premium and Ultimate; on the free tier the routes do not exist). */
  epics: EpicsActions,
  /** Child epics (GitLab's epic links). */
  epicLinks: EpicLinksActions,
  /** Notes, discussions and resource state events: the shared notes' (@collab/notes-contract); threads are not resolvable. */
  ...unresolvableNoteContract("issues"),
  /**
   * The same on epics (issues.epics.notes.* …), Premium and Ultimate: `epic_id` is the epic's global
   * id, not its iid, as GitLab's notes helpers look epics up; threads are not resolvable.
   */
  epicNotes: unresolvableNoteContract("issues.epics", "epic_id"),
  analytics: {
    /**
     * Bus only (activity's group analytics): how many issues were created after `since` in these
     * projects that the caller sees — confidential ones only in `reporter_project_ids` or when the
     * caller (`user_id`) wrote them.
     */
    createdSince: actionContract("issues.analytics.createdSince", {
      input: () => z.object({ project_ids: ids(), reporter_project_ids: ids(), user_id: int().nullable(), since: z.coerce.date() }),
      output: () => int(),
      idempotent: true,
    }),
  },
  mergeRequestLinks: {
    /**
     * Closes the issues a merged merge request references with the closing pattern, as the merging
     * user (ctx.meta); issues the user may not update, or not open, are skipped. Answers the ids closed.
     */
    closeIssues: actionContract("issues.mergeRequestLinks.closeIssues", {
      input: () => z.object({ refs: IssueRefs(), merge_request: z.object({ iid: int(), project_id: int(), reference: z.string() }) }),
      output: () => z.object({ closed: z.array(int()) }),
    }),
    /**
     * The issues of `refs` the caller may read, presented as the issue list presents them from the
     * merge request's project `context_project_id` (GitLab's closes_issues); hidden ones left out.
     */
    /**
     * The issue at a route's project and iid (`/projects/:id/issues/:issue_iid/closed_by`) as the
     * caller may read it: GET issue's 404s, else its project id and iid.
     */
    readableIssue: actionContract("issues.mergeRequestLinks.readableIssue", {
      input: () => z.object({ id: z.union([z.string().min(1), int()]), issue_iid: int() }),
      output: () => IssueRef,
      idempotent: true,
    }),
    readableIssues: actionContract("issues.mergeRequestLinks.readableIssues", {
      input: () => z.object({ refs: IssueRefs(), context_project_id: int() }),
      output: () => z.array(IssueSchema),
      idempotent: true,
    }),
  },
};
