/**
 * Actions of the merge-requests service: those other services call, and those its routes call
 * (routes.ts), each with the input it validates and the answer it gives, before the gateway turns
 * it into HTTP. The notes, discussions and state events entries are the shared notes contract's.
 */
import { actionContract, fileOf, noContent, pageOf, replyOf, flushContract } from "@collab/core";
import { IssueBasicSchema, Issues } from "@collab/issues-contract";
import { awardEmojiContract, discussionContract, noteContract, participantsContract, timeTrackingContract, withResourceEvents } from "@collab/notes-contract";
import { CreateCommitNoteParams, ListCommitNotesParams } from "./params/commit-notes";
import { MergeRequestHookAttrsSchema } from "./hook-attrs";
import { z } from "zod";
import {
  ApprovalSettingsSchema,
  ApprovalsSchema,
  ApprovalStateSchema,
  CommitNoteSchema,
  MergeRequestApprovalRuleSchema,
  MergeRequestBasicSchema,
  MergeRequestChangesSchema,
  MergeRequestCommitSchema,
  MergeRequestListItemSchema,
  MergeRequestReviewerSchema,
  MergeRequestSchema,
  ProjectApprovalRuleSchema,
} from "./entities";
import {
  ApprovalMergeRequestRefParams,
  ApprovalProjectRefParams,
  ApproveParams,
  CreateMergeRequestRuleParams,
  CreateProjectRuleParams,
  ListMergeRequestRulesParams,
  ListProjectRulesParams,
  MergeRequestRuleRefParams,
  ProjectRuleRefParams,
  UpdateMergeRequestRuleParams,
  UpdateProjectRuleParams,
  UpdateSettingsParams,
} from "./params/approvals";
import { ClosedByParams, ClosesIssuesParams } from "./params/closing-issues";
import {
  CreateMergeRequestParams,
  ListMergeRequestsParams,
  MergeParams,
  MergeRequestChangesParams,
  MergeRequestCommitsParams,
  MergeRequestDiffsParams,
  MergeRequestRefParams,
  RebaseParams,
  SubscribeMergeRequestParams,
  UpdateMergeRequestParams,
} from "./params/merge-requests";
import { RepositoryDiffSchema } from "@collab/repositories-contract";

const int = () => z.number().int();

export const MergeRequestsActions = {
  /** Bus only: namespaces empties this node's held project access (see @collab/work-items, projects.ts). */
  accessCache: { flush: flushContract("merge-requests.accessCache.flush") },
  /** Bus only: this node's held user refs are emptied (accounts' user events, see @collab/work-items, users.ts). */
  userRefs: { flush: flushContract("merge-requests.userRefs.flush") },
  /** Bus only: this node's held labels and milestones are emptied (namespaces' events, see @collab/work-items, page-refs.ts). */
  workItemRefs: { flush: flushContract("merge-requests.workItemRefs.flush") },
  mergeRequests: {
    /** GET /merge_requests: the caller's (created_by_me unless scope says otherwise), or all readable with scope=all. */
    listAll: actionContract("merge-requests.mergeRequests.listAll", { input: () => ListMergeRequestsParams, output: () => pageOf(MergeRequestListItemSchema), idempotent: true }),
    /** GET /groups/:id/merge_requests. */
    listGroup: actionContract("merge-requests.mergeRequests.listGroup", { input: () => ListMergeRequestsParams, output: () => pageOf(MergeRequestListItemSchema), idempotent: true }),
    /** GET /projects/:id/merge_requests. */
    listProject: actionContract("merge-requests.mergeRequests.listProject", { input: () => ListMergeRequestsParams, output: () => pageOf(MergeRequestListItemSchema), idempotent: true }),
    /** GET /projects/:id/merge_requests/:merge_request_iid. */
    /**
     * Bus only: the merge requests of `ids` the caller may read, as the merge request list
     * presents them; the others left out. One call per page of to-dos.
     */
    byIds: actionContract("merge-requests.mergeRequests.byIds", {
      input: () => z.object({ ids: z.array(int()).max(100) }),
      output: () => z.array(MergeRequestListItemSchema),
      idempotent: true,
    }),
    /**
     * Bus only, for services acting for no user (webhooks, at an event's fan-out): the merge
     * requests of `ids` as GitLab's hook data shows them, readable or not; unknown ids left out.
     */
    hookAttrs: actionContract("merge-requests.mergeRequests.hookAttrs", {
      input: () => z.object({ ids: z.array(int()).max(100) }),
      output: () => z.array(MergeRequestHookAttrsSchema),
      idempotent: true,
    }),
    /** POST …/subscribe and …/unsubscribe (the route sets `subscribed`): 304 when the caller already is so. */
    subscribe: actionContract("merge-requests.mergeRequests.subscribe", { input: () => SubscribeMergeRequestParams, output: () => MergeRequestSchema }),
    /** GET …/reviewers: each reviewer with their review state. */
    reviewers: actionContract("merge-requests.mergeRequests.reviewers", { input: () => MergeRequestRefParams, output: () => z.array(MergeRequestReviewerSchema), idempotent: true }),
    get: actionContract("merge-requests.mergeRequests.get", { input: () => MergeRequestRefParams, output: () => MergeRequestSchema, idempotent: true }),
    /** POST /projects/:id/merge_requests. */
    create: actionContract("merge-requests.mergeRequests.create", { input: () => CreateMergeRequestParams, output: () => MergeRequestSchema }),
    /** PUT /projects/:id/merge_requests/:merge_request_iid. */
    update: actionContract("merge-requests.mergeRequests.update", { input: () => UpdateMergeRequestParams, output: () => MergeRequestSchema }),
    /** DELETE /projects/:id/merge_requests/:merge_request_iid: 204. */
    delete: actionContract("merge-requests.mergeRequests.delete", { input: () => MergeRequestRefParams, output: () => noContent() }),
    /** PUT /projects/:id/merge_requests/:merge_request_iid/merge: the merged merge request. */
    merge: actionContract("merge-requests.mergeRequests.merge", { input: () => MergeParams, output: () => MergeRequestSchema }),
    /** GET …/commits: the commits of the source not in the target, newest first (paged). */
    commits: actionContract("merge-requests.mergeRequests.commits", { input: () => MergeRequestCommitsParams, output: () => pageOf(MergeRequestCommitSchema), idempotent: true }),
    /** GET …/changes: the merge request with its files and `overflow`. */
    changes: actionContract("merge-requests.mergeRequests.changes", { input: () => MergeRequestChangesParams, output: () => MergeRequestChangesSchema, idempotent: true }),
    /** GET …/diffs: a page of its files. */
    diffs: actionContract("merge-requests.mergeRequests.diffs", { input: () => MergeRequestDiffsParams, output: () => pageOf(RepositoryDiffSchema), idempotent: true }),
    /** GET …/raw_diffs: the whole diff as a plain-text patch. */
    rawDiffs: actionContract("merge-requests.mergeRequests.rawDiffs", { input: () => MergeRequestRefParams, output: fileOf, idempotent: true }),
    /** PUT …/rebase: 202 { rebase_in_progress }; the outcome shows on the merge request (merge_error when it failed). */
    rebase: actionContract("merge-requests.mergeRequests.rebase", { input: () => RebaseParams, output: () => replyOf(z.object({ rebase_in_progress: z.boolean() }), 202) }),
  },
  approvals: {
    /** GET …/approvals: the approvals object. */
    get: actionContract("merge-requests.approvals.get", { input: () => ApprovalMergeRequestRefParams, output: () => ApprovalsSchema, idempotent: true }),
    /** GET …/approval_state (Premium+). */
    state: actionContract("merge-requests.approvals.state", { input: () => ApprovalMergeRequestRefParams, output: () => ApprovalStateSchema, idempotent: true }),
    /** POST …/approve: 201 with the approvals object. */
    approve: actionContract("merge-requests.approvals.approve", { input: () => ApproveParams, output: () => ApprovalsSchema }),
    /** POST …/unapprove: 201 with the approvals object. */
    unapprove: actionContract("merge-requests.approvals.unapprove", { input: () => ApprovalMergeRequestRefParams, output: () => ApprovalsSchema }),
    /** PUT …/reset_approvals: 202 Accepted. */
    reset: actionContract("merge-requests.approvals.reset", { input: () => ApprovalMergeRequestRefParams, output: () => replyOf(z.object({ message: z.string() }), 202) }),
  },
  approvalSettings: {
    /** GET /projects/:id/approvals (Premium+). */
    get: actionContract("merge-requests.approvalSettings.get", { input: () => ApprovalProjectRefParams, output: () => ApprovalSettingsSchema, idempotent: true }),
    /** POST /projects/:id/approvals (Premium+). */
    update: actionContract("merge-requests.approvalSettings.update", { input: () => UpdateSettingsParams, output: () => ApprovalSettingsSchema }),
  },
  projectRules: {
    list: actionContract("merge-requests.projectRules.list", { input: () => ListProjectRulesParams, output: () => pageOf(ProjectApprovalRuleSchema), idempotent: true }),
    get: actionContract("merge-requests.projectRules.get", { input: () => ProjectRuleRefParams, output: () => ProjectApprovalRuleSchema, idempotent: true }),
    create: actionContract("merge-requests.projectRules.create", { input: () => CreateProjectRuleParams, output: () => ProjectApprovalRuleSchema }),
    update: actionContract("merge-requests.projectRules.update", { input: () => UpdateProjectRuleParams, output: () => ProjectApprovalRuleSchema }),
    delete: actionContract("merge-requests.projectRules.delete", { input: () => ProjectRuleRefParams, output: () => noContent() }),
  },
  mergeRequestRules: {
    list: actionContract("merge-requests.mergeRequestRules.list", { input: () => ListMergeRequestRulesParams, output: () => pageOf(MergeRequestApprovalRuleSchema), idempotent: true }),
    get: actionContract("merge-requests.mergeRequestRules.get", { input: () => MergeRequestRuleRefParams, output: () => MergeRequestApprovalRuleSchema, idempotent: true }),
    create: actionContract("merge-requests.mergeRequestRules.create", { input: () => CreateMergeRequestRuleParams, output: () => MergeRequestApprovalRuleSchema }),
    update: actionContract("merge-requests.mergeRequestRules.update", { input: () => UpdateMergeRequestRuleParams, output: () => MergeRequestApprovalRuleSchema }),
    delete: actionContract("merge-requests.mergeRequestRules.delete", { input: () => MergeRequestRuleRefParams, output: () => noContent() }),
  },
  closingIssues: {
    /** GET …/closes_issues: the issues the merge request closes that the caller may read, as the issue list presents them. */
    closesIssues: actionContract("merge-requests.closingIssues.closesIssues", {
      input: () => ClosesIssuesParams,
      // With an external issue tracker, its issues are Entities::ExternalIssue: { title, id } (the key).
      output: () => pageOf(z.union([Issues.mergeRequestLinks.readableIssues.output().element, z.object({ title: z.string(), id: z.string() })])),
      idempotent: true,
    }),
    /** GET /projects/:id/issues/:issue_iid/closed_by: the merge requests closing the issue that the caller may read. */
    closedBy: actionContract("merge-requests.closingIssues.closedBy", { input: () => ClosedByParams, output: () => pageOf(MergeRequestBasicSchema), idempotent: true }),
    /** GET /projects/:id/issues/:issue_iid/related_merge_requests: the merge requests whose description mentions or closes the issue, that the caller may read. */
    relatedMergeRequests: actionContract("merge-requests.closingIssues.relatedMergeRequests", { input: () => ClosedByParams, output: () => pageOf(MergeRequestBasicSchema), idempotent: true }),
    /** GET …/merge_requests/:merge_request_iid/related_issues: the issues its title, description and visible notes reference that the caller may read, as IssueBasic. */
    relatedIssues: actionContract("merge-requests.closingIssues.relatedIssues", { input: () => ClosesIssuesParams, output: () => pageOf(IssueBasicSchema), idempotent: true }),
    /**
     * How many merge requests reference each issue with the closing pattern (the issue's
     * merge_requests_count): `[{ project_id, iid, count }]`, one for each ref, in one query.
     */
    counts: actionContract("merge-requests.closingIssues.counts", {
      input: () => z.object({ refs: z.array(z.object({ project_id: int(), iid: int() })).max(1000) }),
      output: () => z.array(z.object({ project_id: int(), iid: int(), count: int() })),
      idempotent: true,
    }),
  },
  /** GET …/merge_requests/:merge_request_iid/participants: the shared notes' (@collab/notes-contract), a page as GitLab's merge requests API answers. */
  participants: participantsContract("merge-requests", { paged: true }),
  /** Notes, discussions (resolvable threads), resource state, label and milestone events: the shared notes' (@collab/notes-contract). */
  ...withResourceEvents(noteContract("merge-requests", "merge_request_iid"), ["labelEvents", "milestoneEvents"]),
  /** Emoji reactions on merge requests and their notes: the shared award emoji's (@collab/notes-contract). */
  awardEmoji: awardEmojiContract("merge-requests", "merge_request_iid"),
  /** Time estimate and spent time: the shared time tracking's (@collab/notes-contract). */
  timeTracking: timeTrackingContract("merge-requests", "merge_request_iid"),
  /** Commits as noteables (their notes live here until a repositories service owns commits). */
  commits: {
    notes: {
      /** GET …/repository/commits/:sha/comments: every note of the commit, oldest first. */
      list: actionContract("merge-requests.commits.notes.list", { input: () => ListCommitNotesParams, output: () => pageOf(CommitNoteSchema), idempotent: true }),
      /** POST …/repository/commits/:sha/comments. */
      create: actionContract("merge-requests.commits.notes.create", { input: () => CreateCommitNoteParams, output: () => CommitNoteSchema }),
    },
    /** …/repository/commits/:commit_id/discussions: the shared discussions (unresolvable). */
    discussions: discussionContract("merge-requests.commits", "commit_id"),
  },
  analytics: {
    /** Bus only (activity's group analytics): merge requests created after `since` in these projects (the caller's readable ones). */
    createdSince: actionContract("merge-requests.analytics.createdSince", {
      input: () => z.object({ project_ids: z.array(int()).max(100_000), since: z.coerce.date() }),
      output: () => int(),
      idempotent: true,
    }),
  },
};
