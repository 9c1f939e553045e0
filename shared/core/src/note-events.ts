import { z } from "zod";
import { eventContract } from "./contract";

const id = z.number().int().positive();

/**
 * The payload of a note event (@collab/notes writes it, the same for every noteable): the note,
 * its noteable as the Events API shows it, and who acted.
 */
export const NoteEventPayload = () =>
  z.object({
    id,
    noteable_type: z.enum(["Issue", "MergeRequest", "Commit", "Snippet", "Epic"]),
    /** null for a commit (its notes are keyed by commit_id). */
    noteable_id: id.nullable(),
    /** null for commits and snippets (they have no iid). */
    noteable_iid: id.nullable(),
    /** The commit's sha, on notes of a commit. */
    commit_id: z.string().optional(),
    /** null for a note on a group's noteable (an epic): group_id names its group. */
    project_id: id.nullable(),
    /** The group of a group noteable (an epic). */
    group_id: id.optional(),
    actor_id: id,
    internal: z.boolean(),
    system: z.boolean(),
    discussion_id: z.string(),
    author_id: id,
    body: z.string(),
    /** ISO timestamp. */
    created_at: z.string(),
    noteable_title: z.string().nullable(),
    noteable_confidential: z.boolean(),
  });

/**
 * The note events of a service whose noteables use the shared notes code (issues, merge
 * requests): `<service>.note.created|updated|deleted`, or `<service>.<entity>.…` for a service's
 * second noteable kind (issues.epic_note.created). The names are built per service, so the
 * entries are made here, once, and each of those services puts them in its contract
 * (Issues.events.noteCreated, MergeRequests.events.noteCreated, ...).
 */
export const noteEventContracts = (service: string, entity = "note") => ({
  noteCreated: eventContract(`${service}.${entity}.created`, NoteEventPayload),
  noteUpdated: eventContract(`${service}.${entity}.updated`, NoteEventPayload),
  noteDeleted: eventContract(`${service}.${entity}.deleted`, NoteEventPayload),
});

export type NoteEventContracts = ReturnType<typeof noteEventContracts>;

/**
 * The payload of an award emoji event (@collab/notes writes it): the award, what it is on (an issue,
 * merge request or snippet, or a note of one: then `note_id`), and the noteable it belongs to.
 */
export const AwardEventPayload = () =>
  z.object({
    id,
    name: z.string(),
    user_id: id,
    awardable_type: z.enum(["Issue", "MergeRequest", "Snippet", "Note"]),
    awardable_id: id,
    /** The note awarded, when the award is on a note. */
    note_id: id.optional(),
    noteable_type: z.enum(["Issue", "MergeRequest", "Snippet"]),
    noteable_id: id,
    /** null for snippets (they have no iid). */
    noteable_iid: id.nullable(),
    project_id: id.nullable(),
    actor_id: id,
    /** ISO timestamp. */
    created_at: z.string(),
  });

/**
 * The award emoji events of a service whose noteables take awards (issues, merge requests,
 * snippets): `<service>.award_emoji.awarded|revoked`, the source of GitLab's Emoji Hook.
 */
export const awardEventContracts = (service: string) => ({
  emojiAwarded: eventContract(`${service}.award_emoji.awarded`, AwardEventPayload),
  emojiRevoked: eventContract(`${service}.award_emoji.revoked`, AwardEventPayload),
});

export type AwardEventContracts = ReturnType<typeof awardEventContracts>;
