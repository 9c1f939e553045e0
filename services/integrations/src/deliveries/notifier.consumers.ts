import { consumer, type Consumers, type Db } from "@collab/db";
import { and, eq, isNotNull, or } from "drizzle-orm";
import { z } from "zod";
import type { EventKind } from "../catalog/events";
import { integrationDeliveries, integrations } from "../db/schema";
import type { DiscordMessage } from "./discord";
import { discordMessage } from "./discord";
import type { ProjectFacts } from "./targets";


/** What a message about an event needs, known from the payload alone. */
interface Described {
  projectId: number;
  kind: EventKind;
  actorId: number | null;
  /** Pushes and pipelines are filtered by branches_to_be_notified. */
  branch?: string;
  /** Pipelines: notify_only_broken_pipelines leaves out all but failed ones. */
  pipelineStatus?: string;
  build: (project: ProjectFacts, author: string, at: string) => DiscordMessage | PipelineMail;
}

/** A pipeline status email, one per recipient. */
export interface PipelineMail {
  to: string[];
  subject: string;
  text: string;
}

const id = z.number().int().positive();
const IssueEvent = z.object({ id, iid: id, project_id: id, actor_id: id, title: z.string(), confidential: z.boolean().default(false) });
const MergeRequestEvent = z.object({ id, iid: id, project_id: id, actor_id: id, title: z.string() });
const NoteEvent = z.object({
  id,
  noteable_type: z.enum(["Issue", "MergeRequest"]),
  noteable_iid: id,
  noteable_title: z.string(),
  noteable_confidential: z.boolean().default(false),
  project_id: id,
  author_id: id,
  body: z.string(),
  internal: z.boolean().default(false),
  system: z.boolean().default(false),
});
const ZERO = "0".repeat(40);
const PushEvent = z.object({ projectId: id, branch: z.string(), before: z.string(), after: z.string(), userId: id, commitTitle: z.string().nullish() });
const TagEvent = z.object({ projectId: id, tag: z.string(), before: z.string(), after: z.string(), userId: id });
const PipelineEvent = z.object({ pipeline_id: id, project_id: id, ref: z.string(), tag: z.boolean().default(false), sha: z.string(), status: z.string(), user_id: id.nullable() });

export const CHAT_SLUG = "discord";


type Describer = { schema: z.ZodType; describe: (p: any) => Described | null };
const on = <S extends z.ZodType>(schema: S, describe: (p: z.output<S>) => Described | null): Describer => ({ schema, describe });

const issue = (verb: string) =>
  on(IssueEvent, (p) => ({
    projectId: p.project_id,
    kind: p.confidential ? "confidential_issues_events" : "issues_events",
    actorId: p.actor_id,
    build: (project, author, at) => discordMessage({ project: project.path_with_namespace, summary: `Issue #${p.iid} ${verb} by ${author}`, title: `#${p.iid} ${p.title}`, url: `${project.web_url}/-/issues/${p.iid}`, author, at }),
  }));
const mergeRequest = (verb: string) =>
  on(MergeRequestEvent, (p) => ({
    projectId: p.project_id,
    kind: "merge_requests_events",
    actorId: p.actor_id,
    build: (project, author, at) => discordMessage({ project: project.path_with_namespace, summary: `Merge request !${p.iid} ${verb} by ${author}`, title: `!${p.iid} ${p.title}`, url: `${project.web_url}/-/merge_requests/${p.iid}`, author, at }),
  }));
const note = on(NoteEvent, (p) => {
  if (p.system) return null; // system notes are not chat-worthy
  const [ref, path] = p.noteable_type === "Issue" ? [`issue #${p.noteable_iid}`, "issues"] : [`merge request !${p.noteable_iid}`, "merge_requests"];
  return {
    projectId: p.project_id,
    kind: p.internal || p.noteable_confidential ? "confidential_note_events" : "note_events",
    actorId: p.author_id,
    build: (project, author, at) => discordMessage({ project: project.path_with_namespace, summary: `${author} commented on ${ref}`, title: p.noteable_title, url: `${project.web_url}/-/${path}/${p.noteable_iid}#note_${p.id}`, description: p.body, author, at }),
  };
});
const push = on(PushEvent, (p) => {
  const verb = p.before === ZERO ? "pushed new branch" : p.after === ZERO ? "removed branch" : "pushed to branch";
  return {
    projectId: p.projectId,
    kind: "push_events",
    actorId: p.userId,
    branch: p.branch,
    build: (project, author, at) => discordMessage({ project: project.path_with_namespace, summary: `${author} ${verb} ${p.branch}`, title: p.commitTitle ?? p.branch, url: `${project.web_url}/-/commits/${encodeURIComponent(p.branch)}`, author, at }),
  };
});
const tag = on(TagEvent, (p) => ({
  projectId: p.projectId,
  kind: "tag_push_events",
  actorId: p.userId,
  build: (project, author, at) => discordMessage({ project: project.path_with_namespace, summary: `${author} ${p.after === ZERO ? "removed tag" : "pushed new tag"} ${p.tag}`, title: p.tag, url: `${project.web_url}/-/tags/${encodeURIComponent(p.tag)}`, author, at }),
}));

const pipelineFacts = (p: z.output<typeof PipelineEvent>) => ({
  projectId: p.project_id,
  kind: "pipeline_events" as const,
  actorId: p.user_id,
  // Tag pipelines are not filtered by branch (GitLab's notify_for_ref? lets tags through).
  branch: p.tag ? undefined : p.ref,
  pipelineStatus: p.status,
});
const pipelineChat = on(PipelineEvent, (p) => ({
  ...pipelineFacts(p),
  build: (project, author, at) =>
    discordMessage({ project: project.path_with_namespace, summary: `Pipeline #${p.pipeline_id} of ${p.tag ? "tag" : "branch"} ${p.ref} by ${author} ${p.status}`, title: `Pipeline #${p.pipeline_id} ${p.status}`, url: `${project.web_url}/-/pipelines/${p.pipeline_id}`, author, at }),
}));

/** Pipeline status emails (GitLab's PipelinesEmail): recipients from the integration, filled in by the worker. */
const pipelineMail = on(PipelineEvent, (p) => ({
  ...pipelineFacts(p),
  build: (project, author) => ({
    to: [],
    subject: `${project.path_with_namespace} | Pipeline #${p.pipeline_id} has ${p.status} for ${p.ref} | ${p.sha.slice(0, 8)}`,
    text: [`Pipeline #${p.pipeline_id} has ${p.status}.`, "", `Project: ${project.path_with_namespace}`, `${p.tag ? "Tag" : "Branch"}: ${p.ref}`, `Commit: ${p.sha}`, `Triggered by: ${author}`, "", `${project.web_url}/-/pipelines/${p.pipeline_id}`].join("\n"),
  }),
}));

export const MAIL_SLUG = "pipelines-email";

/** The events each notifier reports, by slug and domain event name. */
export const NOTIFIER_EVENTS: Record<string, Record<string, Describer>> = {
  [MAIL_SLUG]: { "runners.pipeline.finished": pipelineMail },
};

/** The events the team chat notifier reports, by domain event name. */
export const CHAT_EVENTS: Record<string, Describer> = {
  "runners.pipeline.finished": pipelineChat,
  "issues.issue.opened": issue("opened"),
  "issues.issue.closed": issue("closed"),
  "issues.issue.reopened": issue("reopened"),
  "merge-requests.merge_request.opened": mergeRequest("opened"),
  "merge-requests.merge_request.closed": mergeRequest("closed"),
  "merge-requests.merge_request.reopened": mergeRequest("reopened"),
  "merge-requests.merge_request.merged": mergeRequest("merged"),
  "issues.note.created": note,
  "merge-requests.note.created": note,
  "namespaces.branch.pushed": push,
  "namespaces.tag.pushed": tag,
};

NOTIFIER_EVENTS[CHAT_SLUG] = CHAT_EVENTS;

/** The message facts of a recorded event for a notifier, or null when the event carries nothing to tell. */
export function describeEvent(slug: string, eventName: string, payload: unknown): Described | null {
  const d = NOTIFIER_EVENTS[slug]?.[eventName];
  const parsed = d?.schema.safeParse(payload);
  return parsed?.success ? d.describe(parsed.data) : null;
}

/**
 * The consumers: each records the event as a "new" delivery row per notifier that reports it, in the consumer's transaction,
 * calling no other service (the contract keeps slow work out of tx, which holds a pooled
 * connection and row locks). Skipped at once when no chat integration could act: none of the project's own
 * and none on any group.
 */
export function notifierConsumers(): Consumers {
  const names = new Set(Object.values(NOTIFIER_EVENTS).flatMap((events) => Object.keys(events)));
  const consumers: Consumers = {};
  for (const name of names) {
    const slugs = Object.keys(NOTIFIER_EVENTS).filter((slug) => NOTIFIER_EVENTS[slug][name]);
    // Each notifier parses the payload itself: one it cannot read is skipped, not the event.
    consumers[name] = consumer(z.record(z.string(), z.unknown()), async (payload, tx: Db, event) => {
      for (const slug of slugs) {
        const d = NOTIFIER_EVENTS[slug][name];
        const parsed = d.schema.safeParse(payload);
        const described = parsed.success ? d.describe(parsed.data) : null;
        if (!described) continue;
        const [candidate] = await tx
          .select({ id: integrations.id })
          .from(integrations)
          .where(and(eq(integrations.slug, slug), eq(integrations.active, true), or(eq(integrations.projectId, described.projectId), isNotNull(integrations.groupId))))
          .limit(1);
        if (!candidate) continue;
        await tx
          .insert(integrationDeliveries)
          .values({ slug, projectId: described.projectId, eventId: event.id, eventName: event.name, occurredAt: new Date(event.occurredAt), payload })
          .onConflictDoNothing();
      }
    });
  }
  return consumers;
}
