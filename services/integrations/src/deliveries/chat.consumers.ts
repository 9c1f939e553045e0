import type { Db, ServiceKit } from "@collab/db";
import { z } from "zod";
import type { EventKind } from "../catalog/events";
import { integrationDeliveries } from "../db/schema";
import { discordMessage } from "./discord";
import { activeIntegrationFor, branchSelected, projectFacts, type ProjectFacts } from "./targets";

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
const consumer = <P>(schema: z.ZodType<P>, handle: Consumer<P>["handle"]): Consumer<P> => ({ schema, handle });

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
const PushEvent = z.object({ projectId: id, branch: z.string(), before: z.string(), after: z.string(), userId: id, commitCount: z.number().int().optional(), commitTitle: z.string().nullish() });
const TagEvent = z.object({ projectId: id, tag: z.string(), before: z.string(), after: z.string(), userId: id });

const CHAT_SLUG = "discord";

/**
 * The team chat notifier (Discord) following the project's activity: each event it is enabled for
 * becomes one pending delivery row, written in the consumer's transaction; the delivery worker
 * sends it. Unique per (integration, event id), so a redelivered event is queued once.
 */
export function chatConsumers(kit: { readonly broker: ServiceKit["broker"] }): Record<string, Consumer<any>> {
  const broker = { call: ((...args: unknown[]) => (kit.broker.call as (...a: unknown[]) => unknown)(...args)) as ServiceKit["broker"]["call"] };
  const userName = async (userId: number) => {
    const [u] = await broker.call<{ id: number; name: string; username: string }[], { ids: number[] }>("accounts.users.refs", { ids: [userId] });
    return u?.name ?? "Someone";
  };

  async function enqueue(tx: Db, event: DomainEvent, projectId: number, kind: EventKind, build: (p: ProjectFacts, author: string) => Parameters<typeof discordMessage>[0], actorId: number, branch?: string) {
    const project = await projectFacts(broker, projectId);
    if (!project) return; // deleted meanwhile: nothing to tell
    const integration = await activeIntegrationFor(tx, project, CHAT_SLUG, kind);
    if (!integration) return;
    if (branch !== undefined && !(await branchSelected(broker, integration, project, branch))) return;
    const message = discordMessage(build(project, await userName(actorId)));
    await tx
      .insert(integrationDeliveries)
      .values({ integrationId: integration.id, projectId, eventId: event.id, eventName: event.name, message: { ...message } })
      .onConflictDoNothing();
  }

  const issue = (verb: string) =>
    consumer(IssueEvent, (p, tx, e) =>
      enqueue(tx, e, p.project_id, p.confidential ? "confidential_issues_events" : "issues_events", (project, author) => ({ project: project.path_with_namespace, summary: `Issue #${p.iid} ${verb} by ${author}`, title: `#${p.iid} ${p.title}`, url: `${project.web_url}/-/issues/${p.iid}`, author, at: e.occurredAt }), p.actor_id),
    );
  const mergeRequest = (verb: string) =>
    consumer(MergeRequestEvent, (p, tx, e) =>
      enqueue(tx, e, p.project_id, "merge_requests_events", (project, author) => ({ project: project.path_with_namespace, summary: `Merge request !${p.iid} ${verb} by ${author}`, title: `!${p.iid} ${p.title}`, url: `${project.web_url}/-/merge_requests/${p.iid}`, author, at: e.occurredAt }), p.actor_id),
    );
  const note = consumer(NoteEvent, async (p, tx, e) => {
    if (p.system) return; // system notes are not chat-worthy (GitLab's NoteMessage ignores them)
    const kind: EventKind = p.internal || p.noteable_confidential ? "confidential_note_events" : "note_events";
    const [ref, path] = p.noteable_type === "Issue" ? [`issue #${p.noteable_iid}`, "issues"] : [`merge request !${p.noteable_iid}`, "merge_requests"];
    await enqueue(tx, e, p.project_id, kind, (project, author) => ({ project: project.path_with_namespace, summary: `${author} commented on ${ref}`, title: p.noteable_title, url: `${project.web_url}/-/${path}/${p.noteable_iid}#note_${p.id}`, description: p.body, author, at: e.occurredAt }), p.author_id);
  });
  const push = consumer(PushEvent, (p, tx, e) => {
    const verb = p.before === ZERO ? "pushed new branch" : p.after === ZERO ? "removed branch" : "pushed to branch";
    return enqueue(tx, e, p.projectId, "push_events", (project, author) => ({ project: project.path_with_namespace, summary: `${author} ${verb} ${p.branch}`, title: p.commitTitle ?? p.branch, url: `${project.web_url}/-/commits/${encodeURIComponent(p.branch)}`, author, at: e.occurredAt }), p.userId, p.branch);
  });
  const tag = consumer(TagEvent, (p, tx, e) => {
    const verb = p.after === ZERO ? "removed tag" : "pushed new tag";
    return enqueue(tx, e, p.projectId, "tag_push_events", (project, author) => ({ project: project.path_with_namespace, summary: `${author} ${verb} ${p.tag}`, title: p.tag, url: `${project.web_url}/-/tags/${encodeURIComponent(p.tag)}`, author, at: e.occurredAt }), p.userId);
  });

  return {
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
}
