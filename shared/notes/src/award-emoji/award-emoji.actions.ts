import { actionsOf, announce, callerOf, implement, notFound, page, recordNotFound, unauthorized, type AwardEventContracts, type Ctx, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { AwardEmojiRow } from "../db/tables";
import type { AwardEmojiEntries } from "@collab/notes-contract";
import { userMap } from "@collab/work-items";
import type { ActionSchema } from "moleculer";
import { assertNoteableWritable, notesContext, type NoteableParams } from "../actions/context";
import { findNote } from "../finders/notes.finder";
import type { LoadedNoteable, NoteableKind } from "../kind";
import { addAward, awardRefused, removeAward, type BumpVotes } from "./award-emoji";
import { presentAward } from "./award-emoji.entity";
import { findAward, findAwards, type Awardable } from "./award-emoji.finder";
import { emojiName } from "./emoji-names";

/** A noteable kind whose noteables and notes take awards; `bumpVotes` keeps its upvotes/downvotes (kinds without counts leave it out). */
export interface AwardableKind<L extends LoadedNoteable> {
  notes: NoteableKind<L>;
  bumpVotes?: BumpVotes;
  /** The service's award events (awardEventContracts of @collab/core), written with each award and removal. */
  events: AwardEventContracts;
}

/** What an award event carries: the award, the note it is on (if any) and its noteable. */
function awardPayload(award: AwardEmojiRow, l: LoadedNoteable, noteableType: string, actorId: number) {
  const n = l.noteable;
  return {
    id: award.id,
    name: award.name,
    user_id: award.userId,
    awardable_type: award.awardableType as "Issue" | "MergeRequest" | "Snippet" | "Note",
    awardable_id: award.awardableId,
    ...(award.awardableType === "Note" ? { note_id: award.awardableId } : {}),
    // Awardable kinds are issues, merge requests and snippets (AwardableKind's services).
    noteable_type: noteableType as "Issue" | "MergeRequest" | "Snippet",
    noteable_id: n.id!,
    noteable_iid: n.iid,
    project_id: n.projectId,
    actor_id: actorId,
    created_at: award.createdAt.toISOString(),
  };
}

/**
 * GET/POST …/award_emoji and GET/DELETE …/award_emoji/:award_id on a noteable and on its notes
 * (note_id), as GitLab's award emoji API: readers of the noteable list the awards, whoever may
 * comment on it awards (404 "Award Emoji Not Found" for the others), only the awarder or an
 * administrator removes an award (401 otherwise).
 */
export function awardEmojiActions<L extends LoadedNoteable>(kit: ServiceKit, k: AwardableKind<L>, entries: AwardEmojiEntries): Record<string, ActionSchema> {
  const kind = k.notes;
  const c = notesContext(kit, kind);
  const service = kind.events.noteCreated.name.split(".")[0];

  /** The noteable, or its note when the path names one: readable by the caller, else 404. */
  async function awardable(ctx: Ctx<NoteableParams & { note_id?: number }>) {
    const l = await c.load(ctx);
    const { noteable } = l;
    if (ctx.params.note_id === undefined) {
      const target: Awardable = { type: kind.noteableType, id: noteable.id!, projectId: noteable.projectId };
      return { l, target, system: false };
    }
    const note = await findNote(kit.db, c.scope(l), ctx.params.note_id, c.visibility(l));
    if (!note) throw recordNotFound();
    return { l, target: { type: "Note", id: note.id, projectId: note.projectId } satisfies Awardable, system: note.system };
  }

  const actions: ImplementedAction[] = [
    implement(
      entries.list,
      async (ctx) => {
        const { target } = await awardable(ctx);
        const { rows, total } = await findAwards(kit.db, kind.tables, target, ctx.params);
        const users = await userMap(ctx, rows.map((a) => a.userId));
        return page(rows.map((a) => presentAward(a, users)), total, ctx.params);
      },
      { visibility: "published" },
    ),

    implement(
      entries.get,
      async (ctx) => {
        const { target } = await awardable(ctx);
        const award = await findAward(kit.db, kind.tables, target, ctx.params.award_id);
        if (!award) throw recordNotFound();
        return presentAward(award, await userMap(ctx, [award.userId]));
      },
      { visibility: "published" },
    ),

    implement(
      entries.create,
      async (ctx) => {
        const { l, target, system } = await awardable(ctx);
        if (!l.caller || !kind.can.comment(l)) throw notFound("Award Emoji");
        if (system) throw awardRefused("Awardable cannot be awarded emoji");
        const name = emojiName(ctx.params.name);
        if (!name) throw awardRefused("Name is not a valid emoji name");
        assertNoteableWritable(l);
        const caller = l.caller;
        const award = await kit.events.transact(
          (tx) => addAward(tx, kind.tables, target, name, caller.id, k.bumpVotes),
          (a) => [announce(k.events.emojiAwarded, awardPayload(a, l, kind.noteableType, caller.id))],
        );
        return presentAward(award, await userMap(ctx, [award.userId]));
      },
      { visibility: "published" },
    ),

    implement(
      entries.delete,
      async (ctx) => {
        const { l, target } = await awardable(ctx);
        const award = await findAward(kit.db, kind.tables, target, ctx.params.award_id);
        if (!award) throw recordNotFound();
        const caller = callerOf(ctx);
        if (!caller || (award.userId !== caller.id && !caller.admin)) throw unauthorized();
        await kit.events.transact(
          (tx) => removeAward(tx, kind.tables, award, k.bumpVotes),
          // A concurrent removal announced it.
          (gone) => (gone ? [announce(k.events.emojiRevoked, awardPayload(award, l, kind.noteableType, caller.id))] : []),
        );
        return null;
      },
      { visibility: "published" },
    ),
  ];
  return actionsOf(service, actions);
}
