import { Accounts } from "@collab/accounts-contract";
import { AccessLevel, call, extractMentions, type PayloadOf } from "@collab/core";
import type { Db, EventHandler } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import type { ServiceBroker } from "moleculer";
import { createTodos, removeTodosOfTarget, resolveTodosForTarget, type TodoTarget } from "./todos.store";

/**
 * GitLab's TodoService, driven by the issues' and merge requests' durable events: assignments,
 * review requests and mentions make to-dos for others than the actor; closing, merging,
 * approving or commenting marks the actor's own pending to-dos on the target done; deleting the
 * target removes them. Each runs in the transaction that records the event as processed, so a
 * redelivered event makes nothing twice.
 */

interface Mentioning {
  text: string | null | undefined;
  /** The text it replaced: who it named already gets no new to-do. */
  previous?: string | null;
  authorId: number;
  /** Confidential issue or internal note: Reporter and up only. */
  restricted: boolean;
  note?: { id: number; body: string };
}

export function todoHandlers(broker: () => ServiceBroker) {
  /** Users of these usernames who may read the target, the author aside: id → username. */
  async function readers(target: TodoTarget, usernames: string[], m: Mentioning): Promise<Map<string, number>> {
    if (!usernames.length) return new Map();
    const users = (await call(broker(), Accounts.users.refs, { usernames })).filter((u) => u.state === "active" && u.id !== m.authorId);
    if (!users.length) return new Map();
    const access = await call(broker(), Namespaces.access.levelsOnProject, { project_id: target.projectId, user_ids: users.map((u) => u.id) });
    const may = (id: number) => access[id]?.can_read && (!m.restricted || access[id].access_level >= AccessLevel.REPORTER);
    return new Map(users.filter((u) => may(u.id)).map((u) => [u.username.toLowerCase(), u.id]));
  }

  /** TodoService#create_mention_todos: directly addressed at the start of a line, else mentioned. */
  async function mentionTodos(tx: Db, target: TodoTarget, m: Mentioning, at: Date) {
    const { directlyAddressed, mentioned } = extractMentions(m.text);
    const before = extractMentions(m.previous);
    const skip = new Set([...before.directlyAddressed, ...before.mentioned]);
    const direct = directlyAddressed.filter((n) => !skip.has(n));
    const other = mentioned.filter((n) => !skip.has(n));
    const ids = await readers(target, [...direct, ...other], m);
    const row = (name: string, action: string) => {
      const userId = ids.get(name);
      return userId === undefined ? [] : [{ userId, authorId: m.authorId, action, body: m.note?.body ?? null, noteId: m.note?.id ?? null }];
    };
    await createTodos(tx, target, [...direct.flatMap((n) => row(n, "directly_addressed")), ...other.flatMap((n) => row(n, "mentioned"))], at);
  }

  /** TodoService#create_assignment_todo / create_request_review_todo: not for the actor. */
  const assignedTodos = (tx: Db, target: TodoTarget, userIds: number[] | undefined, actorId: number, action: "assigned" | "review_requested", at: Date) =>
    createTodos(tx, target, [...new Set(userIds ?? [])].filter((id) => id !== actorId).map((userId) => ({ userId, authorId: actorId, action, body: null, noteId: null })), at);

  type IssueOpened = PayloadOf<typeof Issues.events.issueOpened>;
  type IssueUpdated = PayloadOf<typeof Issues.events.issueUpdated>;
  type MergeRequestOpened = PayloadOf<typeof MergeRequests.events.mergeRequestOpened>;
  type MergeRequestUpdated = PayloadOf<typeof MergeRequests.events.mergeRequestUpdated>;
  type NoteCreated = PayloadOf<typeof Issues.events.noteCreated>;
  type Acted = { id: number; actor_id: number };

  const issue = (p: { id: number; project_id: number }): TodoTarget => ({ type: "Issue", id: p.id, projectId: p.project_id });
  const mergeRequest = (p: { id: number; project_id: number }): TodoTarget => ({ type: "MergeRequest", id: p.id, projectId: p.project_id });
  const at = (occurredAt: string) => new Date(occurredAt);

  const issueWritten: EventHandler<IssueOpened | IssueUpdated> = async (p, tx, event) => {
    await assignedTodos(tx, issue(p), p.assignee_ids, p.actor_id, "assigned", at(event.occurredAt));
    if (p.description !== undefined)
      await mentionTodos(tx, issue(p), { text: p.description, previous: "previous_description" in p ? p.previous_description : null, authorId: p.actor_id, restricted: p.confidential }, at(event.occurredAt));
  };

  const mergeRequestWritten: EventHandler<MergeRequestOpened | MergeRequestUpdated> = async (p, tx, event) => {
    await assignedTodos(tx, mergeRequest(p), p.assignee_ids, p.actor_id, "assigned", at(event.occurredAt));
    await assignedTodos(tx, mergeRequest(p), p.reviewer_ids, p.actor_id, "review_requested", at(event.occurredAt));
    if (p.description !== undefined)
      await mentionTodos(tx, mergeRequest(p), { text: p.description, previous: "previous_description" in p ? p.previous_description : null, authorId: p.actor_id, restricted: false }, at(event.occurredAt));
  };

  /** TodoService#handle_note: the commenter's own pending to-dos on the target are done; the note's mentions make new ones. */
  const noteCreated: EventHandler<NoteCreated> = async (p, tx, event) => {
    if (p.system || p.project_id === null || p.noteable_id === null || (p.noteable_type !== "Issue" && p.noteable_type !== "MergeRequest")) return;
    const target: TodoTarget = { type: p.noteable_type, id: p.noteable_id, projectId: p.project_id };
    await resolveTodosForTarget(tx, target, p.author_id);
    await mentionTodos(tx, target, { text: p.body, authorId: p.author_id, restricted: p.internal || p.noteable_confidential, note: { id: p.id, body: p.body } }, at(event.occurredAt));
  };

  return {
    issueOpened: issueWritten,
    issueUpdated: issueWritten,
    /** Closing (or moving away) resolves the actor's own to-dos on it (TodoService#close_issue). */
    issueClosed: ((p, tx) => resolveTodosForTarget(tx, { type: "Issue", id: p.id }, p.actor_id)) as EventHandler<Acted>,
    issueDeleted: ((p, tx) => removeTodosOfTarget(tx, { type: "Issue", id: p.id })) as EventHandler<Acted>,
    mergeRequestOpened: mergeRequestWritten,
    mergeRequestUpdated: mergeRequestWritten,
    /** Closing, merging or approving resolves the actor's own to-dos on it. */
    mergeRequestResolved: ((p, tx) => resolveTodosForTarget(tx, { type: "MergeRequest", id: p.id }, p.actor_id)) as EventHandler<Acted>,
    mergeRequestDeleted: ((p, tx) => removeTodosOfTarget(tx, { type: "MergeRequest", id: p.id })) as EventHandler<Acted>,
    noteCreated,
  };
}
