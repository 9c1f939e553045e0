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
