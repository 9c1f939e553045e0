import { pickFields, type EventContract } from "@collab/core";
import { on, preparedQuery, type Db, type Subscription } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Repositories } from "@collab/repositories-contract";
import { Runners } from "@collab/runners-contract";
import { Snippets } from "@collab/snippets-contract";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { EventKind } from "@collab/integrations-contract";
import { integrationDeliveries, integrations, webHooks } from "../db/schema";
import { chatBody, CHAT_SLUGS, type ChatBody, type ChatFacts } from "./chat-message";
import type { ProjectFacts } from "./targets";
import { hookedEvent, recordHookEvent } from "../hooks/consumers";
import { describeHookEvent, GROUP_HOOK_EVENTS, HOOK_EVENTS } from "../hooks/events";
import { refsWithActor, withUsers, type Enriched, type HookRefs } from "../hooks/enrich";
import type { UserRef } from "@collab/accounts-contract";
import { CI_SLUGS, type CiMessage } from "./ci";
import { byName, describer, type Described, type Describer } from "./describer";
import { MAIL_EVENTS } from "./mails";
import { JIRA_EVENTS } from "./jira.events";


/** What describeEvent answers: the message built for the notifier, in its format (a chat notifier's from its settings). */
export interface DescribedFor extends Omit<Described, "build"> {
  build: (project: ProjectFacts, author: string, at: string, user: UserRef | undefined, properties: Record<string, unknown>, enriched?: Enriched) => object;
}

const ZERO = "0".repeat(40);

/** The chat facts of an event of the project. */
const chatFacts = (kind: EventKind, project: ProjectFacts, author: string, at: string, m: Pick<ChatFacts, "summary" | "title" | "url" | "description" | "thread">): ChatFacts => ({
  kind,
  project: project.path_with_namespace,
  projectUrl: project.web_url,
  author,
  at,
  ...m,
});

const issue = (event: typeof Issues.events.issueOpened | typeof Issues.events.issueClosed | typeof Issues.events.issueReopened, verb: string) =>
  describer(event, pickFields("id", "iid", "project_id", "actor_id", "title", "confidential"), (p) => {
    const kind = p.confidential ? "confidential_issues_events" : "issues_events";
    return {
      projectId: p.project_id,
      kind,
      actorId: p.actor_id,
      build: (project, author, at) => chatFacts(kind, project, author, at, { summary: `Issue #${p.iid} ${verb} by ${author}`, title: `#${p.iid} ${p.title}`, url: `${project.web_url}/-/issues/${p.iid}`, thread: `issue ${p.id}` }),
    };
  });
const ME = MergeRequests.events;
const mergeRequest = (event: typeof ME.mergeRequestOpened | typeof ME.mergeRequestClosed | typeof ME.mergeRequestReopened | typeof ME.mergeRequestMerged, verb: string) =>
  describer(event, pickFields("id", "iid", "project_id", "actor_id", "title"), (p) => ({
    projectId: p.project_id,
    kind: "merge_requests_events",
    actorId: p.actor_id,
    build: (project, author, at) =>
      chatFacts("merge_requests_events", project, author, at, { summary: `Merge request !${p.iid} ${verb} by ${author}`, title: `!${p.iid} ${p.title}`, url: `${project.web_url}/-/merge_requests/${p.iid}`, thread: `merge_request ${p.id}` }),
  }));
/** How a chat message names a note's noteable, and its page under the project. */
function noteTarget(p: { noteable_type: string; noteable_id: number | null; noteable_iid: number | null; commit_id?: string }): [ref: string, path: string] {
  if (p.noteable_type === "Commit") return [`commit ${p.commit_id?.slice(0, 8)}`, `commit/${p.commit_id}`];
  if (p.noteable_type === "Snippet") return [`snippet $${p.noteable_id}`, `snippets/${p.noteable_id}`];
  return p.noteable_type === "Issue" ? [`issue #${p.noteable_iid}`, `issues/${p.noteable_iid}`] : [`merge request !${p.noteable_iid}`, `merge_requests/${p.noteable_iid}`];
}

const note = (event: typeof Issues.events.noteCreated | typeof ME.noteCreated | typeof Snippets.events.noteCreated) =>
  describer(
    event,
    pickFields("id", "noteable_type", "noteable_id", "noteable_iid", "commit_id", "noteable_title", "noteable_confidential", "project_id", "author_id", "body", "internal", "system"),
    (p) => {
      if (p.system) return null; // system notes are not chat-worthy
      if (p.project_id === null) return null; // a group's noteable (epic): project integrations do not see it
      const title = p.noteable_title;
      if (title === null) return null; // nothing to title the message with
      const [ref, path] = noteTarget(p);
      const kind = p.internal || p.noteable_confidential ? "confidential_note_events" : "note_events";
      return {
        projectId: p.project_id,
        kind,
        actorId: p.author_id,
        // A comment threads with what it is on.
        build: (project, author, at) => chatFacts(kind, project, author, at, { summary: `${author} commented on ${ref}`, title, url: `${project.web_url}/-/${path}#note_${p.id}`, description: p.body, thread: ref }),
      };
    },
  );
/** The pushed commits as GitLab's push message lists them: short sha, title and author, one a line. */
const commitLines = (commits: readonly { id: string; title: string; author: { name: string } }[]) => commits.map((c) => `${c.id.slice(0, 8)}: ${c.title} - ${c.author.name}`).join("\n") || undefined;

const push = describer(Repositories.events.branchPushed, pickFields("projectId", "branch", "before", "after", "userId", "commitTitle", "commits"), (p) => {
  const verb = p.before === ZERO ? "pushed new branch" : p.after === ZERO ? "removed branch" : "pushed to branch";
  return {
    projectId: p.projectId,
    kind: "push_events",
    actorId: p.userId,
    branch: p.branch,
    build: (project, author, at) =>
      chatFacts("push_events", project, author, at, {
        summary: `${author} ${verb} ${p.branch}`,
        title: p.commitTitle || p.branch,
        url: `${project.web_url}/-/commits/${encodeURIComponent(p.branch)}`,
        description: commitLines(p.commits),
        thread: `push ${p.after}`,
      }),
  };
});
const tag = describer(Repositories.events.tagPushed, pickFields("projectId", "tag", "before", "after", "userId"), (p) => ({
  projectId: p.projectId,
  kind: "tag_push_events",
  actorId: p.userId,
  build: (project, author, at) =>
    chatFacts("tag_push_events", project, author, at, { summary: `${author} ${p.after === ZERO ? "removed tag" : "pushed new tag"} ${p.tag}`, title: p.tag, url: `${project.web_url}/-/tags/${encodeURIComponent(p.tag)}`, thread: `tag ${p.tag}` }),
}));

const pipelineChat = describer(Runners.events.pipelineFinished, pickFields("pipeline_id", "project_id", "ref", "tag", "sha", "status", "user_id"), (p) => ({
  projectId: p.project_id,
  kind: "pipeline_events" as const,
  actorId: p.user_id,
  // Tag pipelines are not filtered by branch (GitLab's ChatNotification#notify_for_ref? lets tags through).
  branch: p.tag ? undefined : p.ref,
  pipelineStatus: p.status,
  build: (project, author, at) =>
    chatFacts("pipeline_events", project, author, at, {
      summary: `Pipeline #${p.pipeline_id} of ${p.tag ? "tag" : "branch"} ${p.ref} by ${author} ${p.status}`,
      title: `Pipeline #${p.pipeline_id} ${p.status}`,
      url: `${project.web_url}/-/pipelines/${p.pipeline_id}`,
      thread: `pipeline ${p.pipeline_id}`,
    }),
}));

/** The events the chat notifiers report, by domain event name (one message model, each tool's format). */
const CHAT_EVENTS: Record<string, Describer> = byName("chat", [
  pipelineChat,
  issue(Issues.events.issueOpened, "opened"),
  issue(Issues.events.issueClosed, "closed"),
  issue(Issues.events.issueReopened, "reopened"),
  mergeRequest(ME.mergeRequestOpened, "opened"),
  mergeRequest(ME.mergeRequestClosed, "closed"),
  mergeRequest(ME.mergeRequestReopened, "reopened"),
  mergeRequest(ME.mergeRequestMerged, "merged"),
  note(Issues.events.noteCreated),
  note(ME.noteCreated),
  note(Snippets.events.noteCreated),
  push,
  tag,
]);

/** X-Gitlab-Event of the hook payloads a build server receives. */
const HOOK_HEADERS: Record<string, string> = { push: "Push Hook", tag_push: "Tag Push Hook", merge_request: "Merge Request Hook" };

/**
 * Build servers get the webhook payload of a push, tag push or merge request (built by the
 * webhooks' describer); which of them a server acts on is its own (deliveries/ci.ts).
 */
const ciEvent = (event: EventContract): Describer => ({
  event,
  schema: () => AnyPayload,
  describe: (p) => {
    const facts = describeHookEvent(event.name, p);
    if (!facts) return null;
    return {
      projectId: facts.projectId,
      kind: facts.flag as EventKind,
      actorId: facts.actorId,
      refs: refsWithActor(facts.refs, facts.actorId),
      build: (project, _author, _at, user, _properties, enriched) => {
        const data = facts.build(project, enriched ?? withUsers(user ? [user] : [])) as CiMessage["data"];
        return { event: HOOK_HEADERS[data.object_kind] ?? "Push Hook", data };
      },
    };
  },
});
const CI_EVENTS = [Repositories.events.branchPushed, Repositories.events.tagPushed, ME.mergeRequestOpened, ME.mergeRequestUpdated, ME.mergeRequestReopened, ME.mergeRequestClosed, ME.mergeRequestMerged];

/** The events each notifier reports, by slug and domain event name. */
export const NOTIFIER_EVENTS: Record<string, Record<string, Describer>> = {
  ...MAIL_EVENTS,
  ...JIRA_EVENTS,
  ...Object.fromEntries(CHAT_SLUGS.map((slug) => [slug, CHAT_EVENTS])),
  ...Object.fromEntries(CI_SLUGS.map((slug) => [slug, byName(slug, CI_EVENTS.map(ciEvent))])),
};

/** The message facts of a recorded event for a notifier, or null when the event carries nothing to tell. */
export function describeEvent(slug: string, eventName: string, payload: unknown): DescribedFor | null {
  const d = NOTIFIER_EVENTS[slug]?.[eventName];
  const parsed = d?.schema().safeParse(payload);
  const described = parsed?.success ? d.describe(parsed.data) : null;
  if (!described || !CHAT_SLUGS.includes(slug)) return described;
  return { ...described, build: (project, author, at, user, properties = {}) => chatBody(slug, described.build(project, author, at, user, properties) as ChatFacts, properties) };
}

/**
 * What could act on an event of a project: the slugs with an active integration that could apply
 * (the project's own or any group's), and whether any webhook could (the project's or any group's).
 * One statement per event (asked for every event: prepared); projectId 0 (a group's event) matches
 * group rows only.
 */
const candidates = preparedQuery((db: Db) =>
  db
    .select({
      slugs: sql<string[] | null>`(SELECT array_agg(DISTINCT ${integrations.slug}) FROM ${integrations} WHERE ${integrations.active} AND (${integrations.projectId} = ${sql.placeholder("projectId")} OR ${integrations.groupId} IS NOT NULL))`,
      hooks: sql<boolean>`EXISTS (SELECT 1 FROM ${webHooks} WHERE ${webHooks.projectId} = ${sql.placeholder("projectId")} OR ${webHooks.groupId} IS NOT NULL)`,
    })
    .from(sql`(SELECT 1) AS one`)
    .prepare("integrations_event_candidates"),
);

interface Targets {
  /** The notifiers to record a delivery for, with the event's project. */
  notifiers: { slug: string; projectId: number }[];
  /** Webhooks: the event's project (null: a group's event), when some hook could take it. */
  hooks?: { projectId: number | null };
}

/**
 * Who would act on an event: the notifiers that report it (its payload describes a message) with an
 * active integration that could apply, and the webhooks when some hook could take it.
 */
async function targetsOf(db: Db, slugs: string[], name: string, payload: unknown): Promise<Targets> {
  const described: { slug: string; projectId: number }[] = [];
  for (const slug of slugs) {
    const d = NOTIFIER_EVENTS[slug][name];
    const parsed = d?.schema().safeParse(payload);
    const facts = parsed?.success ? d.describe(parsed.data) : null;
    if (facts) described.push({ slug, projectId: facts.projectId });
  }
  const hookEvent = hookedEvent(name, payload);
  const projectId = described[0]?.projectId ?? hookEvent?.projectId;
  if (projectId === undefined) return { notifiers: [] };
  const [found] = await candidates(db, { projectId: projectId ?? 0 });
  const active = new Set(found?.slugs ?? []);
  return { notifiers: described.filter((n) => active.has(n.slug)), hooks: hookEvent && found?.hooks ? hookEvent : undefined };
}

/**
 * The consumers: each records the event as a "new" delivery row per notifier that reports it, and
 * one for the webhooks, in the consumer's transaction, calling no other service (the contract
 * keeps slow work out of tx, which holds a pooled connection and row locks). An event nothing
 * could act on (no integration of the project's own or on any group, no such hook) is skipped
 * before any transaction (Consumer.wanted).
 */
export function notifierSubscriptions(): Subscription[] {
  const events = new Map(Object.values(NOTIFIER_EVENTS).flatMap((described) => Object.values(described).map((d) => [d.event.name, d.event] as const)));
  // Webhooks follow these and more: one consumer per event does both (an event consumed twice throws).
  for (const d of [...Object.values(HOOK_EVENTS), ...Object.values(GROUP_HOOK_EVENTS)]) events.set(d.event.name, d.event);
  return [...events.values()].map((entry) => {
    const name = entry.name;
    const slugs = Object.keys(NOTIFIER_EVENTS).filter((slug) => NOTIFIER_EVENTS[slug][name]);
    // The payload is kept as it came (the worker describes it again when it delivers): each
    // notifier parses it itself, with the fields it picked of the producer's schema; one it
    // cannot read is skipped, not the event.
    return on(
      entry,
      () => AnyPayload,
      async (payload, tx, event) => {
        const targets = await targetsOf(tx, slugs, name, payload);
        for (const { slug, projectId } of targets.notifiers) {
          await tx.insert(integrationDeliveries).values({ slug, projectId, eventId: event.id, eventName: event.name, occurredAt: new Date(event.occurredAt), payload }).onConflictDoNothing();
        }
        if (targets.hooks) await recordHookEvent(tx, targets.hooks.projectId, payload, event);
      },
      async (payload, db) => {
        const targets = await targetsOf(db, slugs, name, payload);
        return targets.notifiers.length > 0 || targets.hooks !== undefined;
      },
    );
  });
}

/** Any JSON object: what the notifier consumers keep of a payload. */
const AnyPayload = z.record(z.string(), z.unknown());
