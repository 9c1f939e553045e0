import type { Db } from "@collab/db";
import { and, eq, isNotNull, or } from "drizzle-orm";
import { z } from "zod";
import type { EventKind } from "../catalog/events";
import { integrationDeliveries, integrations } from "../db/schema";
import type { DiscordMessage } from "./discord";
import { discordMessage } from "./discord";
import type { ProjectFacts } from "./targets";

/** A domain event as the consumer sees it (the durable-events contract: id, name, occurredAt). */
export interface DomainEvent {
  id: string;
  name: string;
  occurredAt: string;
}

export interface Consumer<P> {
  schema: z.ZodType<P>;
  handle: (payload: P, tx: Db, event: DomainEvent) => Promise<void>;
}

/** What a chat message about an event needs, known from the payload alone. */
interface Described {
  projectId: number;
  kind: EventKind;
  actorId: number;
  /** Pushes are filtered by branches_to_be_notified. */
  branch?: string;
  build: (project: ProjectFacts, author: string, at: string) => DiscordMessage;
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

/** The events the team chat notifier reports, by domain event name. */
export const CHAT_EVENTS: Record<string, Describer> = {
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

/** The chat message for a recorded event, or null when the event carries nothing to tell. */
export function describeChatEvent(eventName: string, payload: unknown): Described | null {
  const d = CHAT_EVENTS[eventName];
  const parsed = d?.schema.safeParse(payload);
  return parsed?.success ? d.describe(parsed.data) : null;
}

/**
 * The consumers: each records the event as a "new" delivery row in the consumer's transaction,
 * calling no other service (in one process PGlite has one connection, and the contract keeps slow
 * work out of tx). Skipped at once when no chat integration could act: none of the project's own
 * and none on any group.
 */
export function chatConsumers(): Record<string, Consumer<unknown>> {
  const consumers: Record<string, Consumer<unknown>> = {};
  for (const [name, d] of Object.entries(CHAT_EVENTS)) {
    consumers[name] = {
      schema: d.schema as z.ZodType<unknown>,
      async handle(payload, tx, event) {
        const described = d.describe(payload);
        if (!described) return;
        const [candidate] = await tx
          .select({ id: integrations.id })
          .from(integrations)
          .where(and(eq(integrations.slug, CHAT_SLUG), eq(integrations.active, true), or(eq(integrations.projectId, described.projectId), isNotNull(integrations.groupId))))
          .limit(1);
        if (!candidate) return;
        await tx
          .insert(integrationDeliveries)
          .values({ slug: CHAT_SLUG, projectId: described.projectId, eventId: event.id, eventName: event.name, occurredAt: new Date(event.occurredAt), payload: payload as Record<string, unknown> })
          .onConflictDoNothing();
      },
    };
  }
  return consumers;
}
