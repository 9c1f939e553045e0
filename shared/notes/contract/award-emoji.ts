/** Emoji reactions (GitLab's award emoji) on a noteable and on its notes: one action set, both paths. */
import { UserRefSchema } from "@collab/accounts-contract";
import { actionContract, gInt, gString, noContent, pageOf, paginationParams, type RouteDef } from "@collab/core";
import { z } from "zod";
import type { NoteablePathParam } from "./params";

const int = () => z.number().int();

/** GitLab's AwardEmoji entity. */
export const AwardEmojiSchema = z.object({
  id: int(),
  name: z.string(),
  user: UserRefSchema.nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  awardable_id: int(),
  awardable_type: z.string(),
  /** A custom emoji's image; null for the standard emoji this API awards. */
  url: z.string().nullable(),
});
export type AwardEmoji = z.output<typeof AwardEmojiSchema>;

/** :id, the noteable's key and, on …/notes/:note_id/award_emoji, the note: its awards instead of the noteable's. */
function awardParams(pathParam: NoteablePathParam) {
  const awardable = { id: gString(), [pathParam]: gInt(), note_id: gInt().optional() } as { id: ReturnType<typeof gString>; note_id: z.ZodOptional<ReturnType<typeof gInt>> } & Record<
    NoteablePathParam,
    ReturnType<typeof gInt>
  >;
  return {
    List: z.object({ ...awardable, ...paginationParams }),
    Ref: z.object({ ...awardable, award_id: gInt() }),
    Create: z.object({ ...awardable, name: gString() }),
  };
}

/** The award emoji entries of `service` (`<service>.awardEmoji.list` …) for the noteable its routes name by `pathParam`. */
export function awardEmojiContract(service: string, pathParam: NoteablePathParam) {
  let params: ReturnType<typeof awardParams> | undefined;
  const P = () => (params ??= awardParams(pathParam));
  return {
    list: actionContract(`${service}.awardEmoji.list`, { input: () => P().List, output: () => pageOf(AwardEmojiSchema), idempotent: true }),
    get: actionContract(`${service}.awardEmoji.get`, { input: () => P().Ref, output: () => AwardEmojiSchema, idempotent: true }),
    create: actionContract(`${service}.awardEmoji.create`, { input: () => P().Create, output: () => AwardEmojiSchema }),
    delete: actionContract(`${service}.awardEmoji.delete`, { input: () => P().Ref, output: noContent }),
  };
}
export type AwardEmojiEntries = ReturnType<typeof awardEmojiContract>;

/**
 * GET/POST …/award_emoji and GET/DELETE …/award_emoji/:award_id of a noteable and of its notes.
 * Anonymous callers read the awards of what they may read; awarding and removing need a user
 * (GitLab answers 404 and 401 to anonymous writes: the actions do).
 */
export function awardEmojiRoutes(entries: AwardEmojiEntries, noteablePath: string): RouteDef[] {
  return [noteablePath, `${noteablePath}/notes/:note_id`].flatMap((P): RouteDef[] => [
    { method: "GET", path: `${P}/award_emoji`, action: entries.list.name, auth: "optional" },
    { method: "POST", path: `${P}/award_emoji`, action: entries.create.name, auth: "optional" },
    { method: "GET", path: `${P}/award_emoji/:award_id`, action: entries.get.name, auth: "optional" },
    { method: "DELETE", path: `${P}/award_emoji/:award_id`, action: entries.delete.name, auth: "optional" },
  ]);
}
