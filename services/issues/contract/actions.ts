/** Actions of the issues service other services call (see index.ts). */
import { actionContract, flushContract, noContent, pageOf } from "@collab/core";
import { awardEmojiContract, participantsContract, timeTrackingContract, unresolvableNoteContract, withResourceEvents } from "@collab/notes-contract";
import { z } from "zod";
import { EpicIssuesActions } from "./epic-issues";
import { EpicLinksActions, EpicsActions } from "./epics";
import { IssueHookAttrsSchema } from "./hook-attrs";
import { IssueSchema } from "./issue";
import { IssueLinksActions } from "./issue-links";
import {
  CloneIssueParams,
  CreateIssueParams,
  IssueByIdParams,
  IssueRefParams,
  IssuesStatisticsParams,
  IssuesStatisticsSchema,
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
    /** GET /issues_statistics: counts by state of the issues /issues would list (scope created_by_me by default). */
    statisticsAll: actionContract("issues.issues.statisticsAll", { input: () => IssuesStatisticsParams, output: () => IssuesStatisticsSchema, idempotent: true }),
    /** GET /groups/:id/issues_statistics. */
    statisticsGroup: actionContract("issues.issues.statisticsGroup", { input: () => IssuesStatisticsParams, output: () => IssuesStatisticsSchema, idempotent: true }),
    /** GET /projects/:id/issues_statistics. */
    statisticsProject: actionContract("issues.issues.statisticsProject", { input: () => IssuesStatisticsParams, output: () => IssuesStatisticsSchema, idempotent: true }),
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
    /**
     * Bus only: the issues of `ids` the caller may read, as GET issue presents them (its
     * `subscribed` aside); the others left out. One call per page of to-dos.
     */
    byIds: actionContract("issues.issues.byIds", { input: () => z.object({ ids: z.array(int()).max(100) }), output: () => z.array(IssueSchema), idempotent: true }),
    /**
     * Bus only, for services acting for no user (webhooks, at an event's fan-out): the issues of
     * `ids` as GitLab's hook data shows them, readable or not; unknown ids left out.
     */
    hookAttrs: actionContract("issues.issues.hookAttrs", { input: () => z.object({ ids: z.array(int()).max(100) }), output: () => z.array(IssueHookAttrsSchema), idempotent: true }),
    /** POST …/subscribe and …/unsubscribe (the route sets `subscribed`); 304 when already so. */
    subscribe: actionContract("issues.issues.subscribe", { input: () => SubscribeIssueParams, output: () => IssueSchema }),
  },
  /** Links between issues (GitLab's issue links). */
  issueLinks: IssueLinksActions,
  /** The epics API (Premium and Ultimate; on the free tier the routes do not exist). */
  epics: EpicsActions,
  /** Child epics (GitLab's epic links). */
  epicLinks: EpicLinksActions,
  /** Issues of epics (GitLab's epic issues). */
  epicIssues: EpicIssuesActions,
  /** GET …/issues/:issue_iid/participants: the shared notes' (@collab/notes-contract), all of them as GitLab's issues API answers. */
  participants: participantsContract("issues", { paged: false }),
  /** Notes, discussions, resource state, label, milestone, weight and iteration events: the shared notes' (@collab/notes-contract); threads are not resolvable. */
  ...unresolvableNoteContract("issues"),
  /**
   * The same on epics (issues.epics.notes.* …), Premium and Ultimate: `epic_id` is the epic's global
   * id, not its iid, as GitLab's notes helpers look epics up; threads are not resolvable.
   */
  epicNotes: withResourceEvents(unresolvableNoteContract("issues.epics", "epic_id"), ["labelEvents"]),
  /** Emoji reactions on issues and their notes: the shared award emoji's (@collab/notes-contract). */
  awardEmoji: awardEmojiContract("issues", "issue_iid"),
  /** Time estimate and spent time: the shared time tracking's (@collab/notes-contract). */
  timeTracking: timeTrackingContract("issues", "issue_iid"),
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
