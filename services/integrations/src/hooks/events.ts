import type { ChangeValues, EventContract, PayloadOf } from "@collab/core";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories } from "@collab/repositories-contract";
import { Runners } from "@collab/runners-contract";
import { Snippets } from "@collab/snippets-contract";
import type { Enriched, HookRefs } from "./enrich";
import { embeddedIssuable, issueHookData, mergeRequestHookData, type IssuableEvent } from "./issuable-payloads";
import { jobHookData, milestoneHookData, type JobEvent, type MilestoneEvent } from "./object-payloads";
import { flatUser, hookProject, hookRepository, hookUser, type HookProject } from "./payloads";

/** What a webhook delivery of a domain event needs: who gets it, and how its body is built. */
export interface HookEventFacts {
  projectId: number;
  /** The trigger flag a hook must have on. */
  flag: string;
  actorId: number | null;
  /** Pushes: push_events_branch_filter applies. */
  branch?: string;
  /** What the body shows as it is now (the acting user included): read once per event, when some hook takes it. */
  refs: HookRefs;
  build: (project: HookProject, e: Enriched) => Record<string, unknown>;
}

interface HookDescriber {
  event: EventContract;
  describe: (payload: any) => HookEventFacts | null;
}

const ZERO = "0".repeat(40);
const at = () => new Date().toISOString();
/** The ids an edit's label, assignee or reviewer change names (before and after). */
const changedIds = (values: ChangeValues | undefined, field: string) =>
  values?.[field] ? [values[field].previous, values[field].current].flatMap((v) => (Array.isArray(v) ? (v as number[]) : [])) : [];

type IssuePayload = IssuableEvent & { confidential: boolean };

const issue = (event: EventContract, action: string): HookDescriber => ({
  event,
  describe: (p: IssuePayload) => ({
    projectId: p.project_id,
    flag: p.confidential ? "confidential_issues_events" : "issues_events",
    actorId: p.actor_id,
    refs: { issueIds: [p.id], userIds: [p.actor_id, ...(action === "open" ? (p.assignee_ids ?? []) : []), ...changedIds(p.change_values, "assignee_ids")], labelIds: changedIds(p.change_values, "label_ids") },
    build: (project, e) => issueHookData(project, e, p, action),
  }),
});

type MergeRequestPayload = IssuableEvent & { source_branch?: string; target_branch?: string; state?: string };

const mergeRequest = (event: EventContract, action: string): HookDescriber => ({
  event,
  describe: (p: MergeRequestPayload) => ({
    projectId: p.project_id,
    flag: "merge_requests_events",
    actorId: p.actor_id,
    refs: {
      mergeRequestIds: [p.id],
      userIds: [
        p.actor_id,
        ...(action === "open" ? [...(p.assignee_ids ?? []), ...(p.reviewer_ids ?? [])] : []),
        ...changedIds(p.change_values, "assignee_ids"),
        ...changedIds(p.change_values, "reviewer_ids"),
      ],
      labelIds: changedIds(p.change_values, "label_ids"),
    },
    build: (project, e) => mergeRequestHookData(project, e, p, action),
  }),
});

type NotePayload = {
  id: number;
  noteable_type: string;
  noteable_id: number | null;
  noteable_iid: number | null;
  commit_id?: string;
  project_id: number | null;
  author_id: number;
  body: string;
  internal: boolean;
  system: boolean;
  discussion_id: string;
  created_at: string;
  noteable_title: string | null;
  noteable_confidential: boolean;
};
const notePath = (p: NotePayload) =>
  p.noteable_type === "Commit" ? `commit/${p.commit_id}` : p.noteable_type === "Snippet" ? `snippets/${p.noteable_id}` : p.noteable_type === "Issue" ? `issues/${p.noteable_iid}` : `merge_requests/${p.noteable_iid}`;
const noteableKey: Record<string, string> = { Issue: "issue", MergeRequest: "merge_request", Snippet: "snippet", Commit: "commit" };
/** The issue or merge request a note or award is on, for the reads of enrich. */
const noteableRefs = (type: string, id: number | null): HookRefs =>
  id === null ? {} : type === "Issue" ? { issueIds: [id] } : type === "MergeRequest" ? { mergeRequestIds: [id] } : {};

/** GitLab's Note Hook: a comment made (`create`) or edited (`update`). */
const note = (event: EventContract, action: "create" | "update"): HookDescriber => ({
  event,
  describe: (p: NotePayload) => {
    if (p.project_id === null || p.system) return null;
    const confidential = p.internal || p.noteable_confidential;
    return {
      projectId: p.project_id,
      flag: confidential ? "confidential_note_events" : "note_events",
      actorId: p.author_id,
      refs: { ...noteableRefs(p.noteable_type, p.noteable_id), userIds: [p.author_id] },
      build: (project, e) => ({
        object_kind: "note",
        event_type: confidential ? "confidential_note" : "note",
        user: hookUser(e.users.get(p.author_id), p.author_id),
        project_id: p.project_id,
        project: hookProject(project),
        object_attributes: {
          id: p.id,
          note: p.body,
          noteable_type: p.noteable_type,
          author_id: p.author_id,
          created_at: p.created_at,
          updated_at: action === "create" ? p.created_at : at(),
          project_id: p.project_id,
          commit_id: p.commit_id ?? null,
          noteable_id: p.noteable_id,
          system: p.system,
          internal: p.internal,
          discussion_id: p.discussion_id,
          action,
          url: `${project.web_url}/-/${notePath(p)}#note_${p.id}`,
        },
        repository: hookRepository(project),
        [noteableKey[p.noteable_type] ?? "noteable"]:
          p.noteable_type === "Commit"
            ? { id: p.commit_id, title: p.noteable_title }
            : embeddedIssuable(e, p.noteable_type, p.noteable_id, project, { id: p.noteable_id, iid: p.noteable_iid, title: p.noteable_title, confidential: p.noteable_confidential }),
      }),
    };
  },
});

type AwardPayload = {
  id: number;
  name: string;
  user_id: number;
  awardable_type: string;
  awardable_id: number;
  note_id?: number;
  noteable_type: string;
  noteable_id: number;
  noteable_iid: number | null;
  project_id: number | null;
  actor_id: number;
  created_at: string;
};
const awardedPath = (p: AwardPayload) =>
  (p.noteable_type === "Snippet" ? `snippets/${p.noteable_id}` : p.noteable_type === "Issue" ? `issues/${p.noteable_iid}` : `merge_requests/${p.noteable_iid}`) +
  (p.note_id ? `#note_${p.note_id}` : "");

/** GitLab's Emoji Hook: an award given (`award`) or taken back (`revoke`) on an issue, merge request, snippet or a comment of one. */
const emoji = (event: EventContract, action: "award" | "revoke"): HookDescriber => ({
  event,
  describe: (p: AwardPayload) =>
    p.project_id === null
      ? null
      : {
          projectId: p.project_id,
          flag: "emoji_events",
          actorId: p.actor_id,
          refs: { ...noteableRefs(p.noteable_type, p.noteable_id), userIds: [p.actor_id] },
          build: (project, e) => ({
            object_kind: "emoji",
            event_type: action,
            user: hookUser(e.users.get(p.actor_id), p.actor_id),
            project_id: p.project_id,
            project: hookProject(project),
            object_attributes: {
              id: p.id,
              name: p.name,
              user_id: p.user_id,
              awardable_type: p.awardable_type,
              awardable_id: p.awardable_id,
              action,
              created_at: p.created_at,
              updated_at: p.created_at,
              awarded_on_url: `${project.web_url}/-/${awardedPath(p)}`,
            },
            repository: hookRepository(project),
            [noteableKey[p.noteable_type] ?? "noteable"]: embeddedIssuable(e, p.noteable_type, p.noteable_id, project, { id: p.noteable_id, iid: p.noteable_iid, project_id: p.project_id }),
            ...(p.note_id ? { note: { id: p.note_id, noteable_type: p.noteable_type, noteable_id: p.noteable_id, project_id: p.project_id } } : {}),
          }),
        },
});

/** A push as the repositories announce it: the newest commits (at most 20) and how many there are. */
export type PushPayload = PayloadOf<typeof Repositories.events.branchPushed> | PayloadOf<typeof Repositories.events.tagPushed>;

/** GitLab's Push Hook and Tag Push Hook (Gitlab::DataBuilder::Push): the pushed commits as the event carries them. */
const push = (tag: boolean): HookDescriber => ({
  event: tag ? Repositories.events.tagPushed : Repositories.events.branchPushed,
  describe: (p: PushPayload) => ({
    projectId: p.projectId,
    flag: tag ? "tag_push_events" : "push_events",
    actorId: p.userId,
    branch: "branch" in p ? p.branch : undefined,
    refs: { userIds: [p.userId] },
    build: (project, e) => ({
      object_kind: tag ? "tag_push" : "push",
      event_name: tag ? "tag_push" : "push",
      before: p.before,
      after: p.after,
      ref: p.ref,
      checkout_sha: p.after === ZERO ? null : p.after,
      message: null,
      ...flatUser(e.users.get(p.userId), p.userId),
      // A pusher deleted since is still named as they pushed.
      user_username: e.users.get(p.userId)?.username ?? p.userUsername,
      project_id: p.projectId,
      project: hookProject(project),
      commits: p.commits.map((c) => ({ id: c.id, message: c.message, title: c.title, timestamp: c.timestamp, url: `${project.web_url}/-/commit/${c.id}`, author: c.author })),
      total_commits_count: p.totalCommitsCount,
      repository: hookRepository(project),
    }),
  }),
});

const pipeline: HookDescriber = {
  event: Runners.events.pipelineFinished,
  describe: (p: { pipeline_id: number; iid: number; project_id: number; ref: string; tag: boolean; sha: string; status: string; source: string; user_id: number | null; finished_at: string | null }) => ({
    projectId: p.project_id,
    flag: "pipeline_events",
    actorId: p.user_id,
    refs: { userIds: [p.user_id] },
    build: (project, e) => ({
      object_kind: "pipeline",
      object_attributes: { id: p.pipeline_id, iid: p.iid, ref: p.ref, tag: p.tag, sha: p.sha, status: p.status, detailed_status: p.status, source: p.source, finished_at: p.finished_at, url: `${project.web_url}/-/pipelines/${p.pipeline_id}` },
      merge_request: null,
      user: hookUser(p.user_id === null ? undefined : e.users.get(p.user_id), p.user_id),
      project: hookProject(project),
      builds: [],
    }),
  }),
};

/** GitLab's Job Hook: a job's status changed. */
const job: HookDescriber = {
  event: Runners.events.jobStatusChanged,
  describe: (p: JobEvent) => ({
    projectId: p.project_id,
    flag: "job_events",
    actorId: p.user_id,
    refs: { userIds: [p.user_id] },
    build: (project, e) => jobHookData(project, e, p),
  }),
};

/** GitLab's Milestone Hook (18.2): a project milestone created, closed, reopened or deleted. */
const milestone = (event: EventContract, action: "create" | "close" | "reopen"): HookDescriber => ({
  event,
  describe: (p: MilestoneEvent) =>
    p.projectId === null
      ? null
      : { projectId: p.projectId, flag: "milestone_events", actorId: p.userId, refs: { milestoneIds: [p.id] }, build: (project, e) => milestoneHookData(project, e, p, action) },
});
const milestoneDeleted: HookDescriber = {
  event: Namespaces.events.milestoneDeleted,
  describe: (p: { projectId: number | null; groupId: number | null; userId: number; milestones: { id: number; iid: number; title: string }[] }) =>
    p.projectId === null || p.milestones.length !== 1
      ? null
      : {
          projectId: p.projectId,
          flag: "milestone_events",
          actorId: p.userId,
          refs: {},
          build: (project, e) => milestoneHookData(project, e, { ...p.milestones[0], projectId: p.projectId, groupId: null, userId: p.userId }, "delete"),
        },
};

const I = Issues.events;
const M = MergeRequests.events;
const N = Namespaces.events;

/** The domain events webhooks deliver, by event name. */
export const HOOK_EVENTS: Record<string, HookDescriber> = Object.fromEntries(
  [
    issue(I.issueOpened, "open"),
    issue(I.issueUpdated, "update"),
    issue(I.issueClosed, "close"),
    issue(I.issueReopened, "reopen"),
    mergeRequest(M.mergeRequestOpened, "open"),
    mergeRequest(M.mergeRequestUpdated, "update"),
    mergeRequest(M.mergeRequestClosed, "close"),
    mergeRequest(M.mergeRequestReopened, "reopen"),
    mergeRequest(M.mergeRequestMerged, "merge"),
    mergeRequest(M.mergeRequestApproved, "approved"),
    mergeRequest(M.mergeRequestUnapproved, "unapproved"),
    // Edits are not delivered: a note's `updated` event does not tell an edit from a resolved thread.
    ...[I, M, Snippets.events].map((events) => note(events.noteCreated, "create")),
    ...[I, M, Snippets.events].flatMap((events) => [emoji(events.emojiAwarded, "award"), emoji(events.emojiRevoked, "revoke")]),
    push(false),
    push(true),
    pipeline,
    job,
    milestone(N.milestoneCreated, "create"),
    milestone(N.milestoneClosed, "close"),
    milestone(N.milestoneReopened, "reopen"),
    milestoneDeleted,
  ].map((d) => [d.event.name, d]),
);

/** A describer's facts of a payload its producer's schema accepts (null otherwise). */
function described<F>(d: { event: EventContract; describe: (p: any) => F | null } | undefined, payload: unknown): F | null {
  if (!d) return null;
  const parsed = (d.event.payload() as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(payload);
  return parsed.success ? d.describe(parsed.data) : null;
}

/** The webhook facts of a recorded project event, or null when webhooks have nothing to deliver for it. */
export const describeHookEvent = (name: string, payload: unknown): HookEventFacts | null => described(HOOK_EVENTS[name], payload);

/** What a group hook delivery of a group's event needs (member events: GitLab's group member hooks). */
export interface GroupHookEventFacts {
  groupId: number;
  flag: string;
  userId: number;
  refs: HookRefs;
  build: (group: { id: number; name: string; full_path: string }, e: Enriched) => Record<string, unknown>;
}

const ACCESS_NAMES: Record<number, string> = { 5: "Minimal Access", 10: "Guest", 15: "Planner", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner" };

const member = (event: EventContract, eventName: string) => ({
  event,
  describe: (p: { sourceType: string; groupId: number | null; userId: number; accessLevel: number | null }): GroupHookEventFacts | null =>
    p.sourceType !== "Namespace" || p.groupId === null
      ? null
      : {
          groupId: p.groupId,
          flag: "member_events",
          userId: p.userId,
          refs: { userIds: [p.userId] },
          build: (group, e) => ({
            created_at: at(),
            updated_at: at(),
            group_name: group.name,
            group_path: group.full_path,
            group_id: group.id,
            ...flatUser(e.users.get(p.userId), p.userId),
            group_access: p.accessLevel === null ? null : (ACCESS_NAMES[p.accessLevel] ?? null),
            group_plan: null,
            expires_at: null,
            event_name: eventName,
          }),
        },
});

/** The groups' events webhooks deliver, by event name. */
export const GROUP_HOOK_EVENTS: Record<string, { event: EventContract; describe: (p: any) => GroupHookEventFacts | null }> = Object.fromEntries(
  [member(Namespaces.events.memberAdded, "user_add_to_group"), member(Namespaces.events.memberRemoved, "user_remove_from_group")].map((d) => [d.event.name, d]),
);

/** The webhook facts of a recorded group event, or null. */
export const describeGroupHookEvent = (name: string, payload: unknown): GroupHookEventFacts | null => described(GROUP_HOOK_EVENTS[name], payload);
