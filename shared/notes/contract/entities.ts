/** The answers of the notes actions, as @collab/notes' api/entity.ts presents them. */
import { UserRefSchema } from "@collab/accounts-contract";
import { LabelBasicSchema, MilestoneSchema } from "@collab/namespaces-contract";
import { z } from "zod";

const int = () => z.number().int();

/** GitLab's Note entity; resolved, resolved_by and resolved_at only for resolvable notes. */
export const NoteSchema = z.object({
  id: int(),
  /** null for a standalone comment, DiscussionNote inside a thread, DiffNote on code. */
  type: z.string().nullable(),
  body: z.string(),
  attachment: z.null(),
  author: UserRefSchema.nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  system: z.boolean(),
  noteable_id: int().nullable(),
  noteable_type: z.string(),
  /** null on a group's noteable (an epic). */
  project_id: int().nullable(),
  commit_id: z.string().nullable(),
  /** A diff note's position as stored (none is written today: the key is then undefined). */
  position: z.record(z.string(), z.unknown()).optional(),
  resolvable: z.boolean(),
  resolved: z.boolean().optional(),
  resolved_by: UserRefSchema.nullable().optional(),
  resolved_at: z.string().nullable().optional(),
  confidential: z.boolean(),
  internal: z.boolean(),
  imported: z.boolean(),
  imported_from: z.literal("none"),
  noteable_iid: int().nullable(),
  commands_changes: z.object({}),
});
export type Note = z.output<typeof NoteSchema>;

/** A thread: its notes oldest first; individual_note for a standalone comment. */
export const DiscussionSchema = z.object({
  id: z.string(),
  individual_note: z.boolean(),
  notes: z.array(NoteSchema),
});
export type Discussion = z.output<typeof DiscussionSchema>;

/** A resource state event (a close, reopen or merge) of an issue, merge request or epic. */
export const StateEventSchema = z.object({
  id: int(),
  user: UserRefSchema.nullable(),
  created_at: z.string().nullable(),
  resource_type: z.enum(["Issue", "MergeRequest", "Epic"]),
  resource_id: int().nullable(),
  state: z.string(),
});
export type StateEvent = z.output<typeof StateEventSchema>;

const eventResource = {
  id: int(),
  user: UserRefSchema.nullable(),
  created_at: z.string().nullable(),
  resource_type: z.enum(["Issue", "MergeRequest", "Epic"]),
  resource_id: int().nullable(),
};
const action = z.enum(["add", "remove"]);

/** A label added to or removed from an issue, merge request or epic (label null once the label is deleted). */
export const LabelEventSchema = z.object({ ...eventResource, label: LabelBasicSchema.nullable(), action });
export type LabelEvent = z.output<typeof LabelEventSchema>;

/** A milestone set on (add) or removed from (remove) an issue or merge request; state: the resource's at the time. */
export const MilestoneEventSchema = z.object({ ...eventResource, milestone: MilestoneSchema.nullable(), action, state: z.string() });
export type MilestoneEvent = z.output<typeof MilestoneEventSchema>;

/** A weight change of an issue (weight null: removed). */
export const WeightEventSchema = z.object({ id: int(), user: UserRefSchema.nullable(), created_at: z.string().nullable(), issue_id: int().nullable(), weight: int().nullable() });
export type WeightEvent = z.output<typeof WeightEventSchema>;

/** An iteration set on or removed from an issue; iteration null: no iteration record to show (none exist here). */
export const IterationEventSchema = z.object({ ...eventResource, iteration: z.record(z.string(), z.unknown()).nullable(), action });
export type IterationEvent = z.output<typeof IterationEventSchema>;
