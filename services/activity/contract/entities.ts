/** What the activity service's routes answer, field by field as its presenters build them (src/events/event.entity.ts). */
import { UserRefSchema } from "@collab/accounts-contract";
import { IssueSchema } from "@collab/issues-contract";
import { MergeRequestListItemSchema } from "@collab/merge-requests-contract";
import { ProjectIdentitySchema } from "@collab/namespaces-contract";
import { z } from "zod";

const id = () => z.number().int();

/** The note of a comment event, as it was when written; its author null when the user is gone. */
export const EventNoteSchema = z.object({
  id: id(),
  body: z.string(),
  attachment: z.null(),
  author: UserRefSchema.nullable(),
  created_at: z.string(),
  system: z.boolean(),
  /** null on a commit's notes (they name the commit by commit_id). */
  noteable_id: id().nullable(),
  noteable_type: z.string(),
  noteable_iid: id().nullable(),
  /** Notes of a commit only: its sha. */
  commit_id: z.string().optional(),
});

/** Entities::PushEventPayload. */
export const PushDataSchema = z.object({
  commit_count: z.number().int(),
  action: z.enum(["pushed", "created", "removed"]),
  ref_type: z.enum(["branch", "tag"]),
  commit_from: z.string().nullable(),
  commit_to: z.string().nullable(),
  ref: z.string(),
  commit_title: z.string().nullable(),
  ref_count: z.number().int().nullable(),
});

/**
 * Entities::Event as the spec shapes it: `note` only for comment events, `push_data` only for
 * pushes; an author that no longer exists presents as null.
 */
export const EventSchema = z.object({
  id: id(),
  title: z.null(),
  project_id: id(),
  action_name: z.string(),
  target_id: id().nullable(),
  target_iid: id().nullable(),
  target_type: z.string().nullable(),
  author_id: id(),
  target_title: z.string().nullable(),
  created_at: z.string(),
  note: EventNoteSchema.optional(),
  author: UserRefSchema.nullable(),
  push_data: PushDataSchema.optional(),
  author_username: z.string().nullable(),
  imported: z.boolean(),
  imported_from: z.string(),
  data: z.null(),
});
export type ActivityEvent = z.output<typeof EventSchema>;

/**
 * Entities::Todo: the target as the caller would get it now (an issue as GET issue shows it, a
 * merge request as the list does); `body` the mentioning note's text, else the target's title.
 */
export const TodoSchema = z.object({
  id: id(),
  project: ProjectIdentitySchema,
  author: UserRefSchema.nullable(),
  action_name: z.string(),
  target_type: z.string(),
  target: z.union([IssueSchema, MergeRequestListItemSchema]).nullable(),
  target_url: z.string().nullable(),
  body: z.string(),
  state: z.enum(["pending", "done"]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Todo = z.output<typeof TodoSchema>;
