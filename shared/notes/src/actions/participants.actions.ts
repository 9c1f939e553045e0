import { actionsOf, implement, offsetOf, page, type Ctx, type UserRef } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ParticipantsEntry } from "@collab/notes-contract";
import { userMap, usersByUsername } from "@collab/work-items";
import type { ActionSchema } from "moleculer";
import { mentionedUsernames } from "../domain/mentions";
import { findParticipation } from "../finders/notes.finder";
import type { LoadedNoteable, NoteableKind } from "../kind";
import { notesContext, type NoteableParams } from "./context";

/**
 * GitLab's visible_participants of a noteable: its author and the kind's other roles (assignees,
 * reviewers), the authors of the notes the caller may see, and the users @mentioned in the
 * noteable and those notes — in that order, once each, keeping those who may read the noteable.
 * A fixed number of statements and calls whatever the conversation's length.
 */
async function participants<L extends LoadedNoteable>(kit: ServiceKit, ctx: Ctx<NoteableParams>, kind: NoteableKind<L>): Promise<UserRef[]> {
  const rules = kind.participants;
  if (!rules) throw new Error(`${kind.noteableType}: no participants`);
  const c = notesContext(kit, kind);
  const key = ctx.params[kind.pathParam] as number;
  const l = rules.load ? await rules.load(kit, ctx, ctx.params.id, key) : await c.load(ctx);
  const [own, notes] = await Promise.all([rules.of(kit, ctx, l), findParticipation(kit.db, c.scope(l), { internal: kind.can.seeInternalNotes(l) })]);
  const usernames = mentionedUsernames([...own.texts, ...notes.map((n) => n.body)]);
  // In the order of their first mention (the lookup answers in its own order).
  const position = new Map(usernames.map((u, i) => [u.toLowerCase(), i] as const));
  const mentioned = (await usersByUsername(ctx, usernames)).sort((a, b) => (position.get(a.username.toLowerCase()) ?? 0) - (position.get(b.username.toLowerCase()) ?? 0));
  const ids = [...new Set([...own.userIds, ...notes.map((n) => n.authorId), ...mentioned.map((u) => u.id)])];
  const [readers, users] = await Promise.all([rules.readers(ctx, l, ids), userMap(ctx, ids)]);
  return ids.filter((id) => readers.has(id)).flatMap((id) => users.get(id) ?? []);
}

/** The participants action of a kind (`<service>.participants`, participantsContract): all of them, or a page. */
export function participantsActions<L extends LoadedNoteable>(kit: ServiceKit, kind: NoteableKind<L>, entry: ParticipantsEntry): Record<string, ActionSchema> {
  const service = entry.name.slice(0, -".participants".length);
  const action = implement(
    entry as ParticipantsEntry,
    async (ctx: Ctx<NoteableParams & { page?: number; per_page?: number }>) => {
      const all = await participants(kit, ctx, kind);
      const { page: p, per_page } = ctx.params;
      if (p === undefined || per_page === undefined) return all;
      const offset = offsetOf({ page: p, per_page });
      return page(all.slice(offset, offset + per_page), all.length, { page: p, per_page });
    },
    { visibility: "published" },
  );
  return actionsOf(service, [action]);
}
