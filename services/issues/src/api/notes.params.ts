import { gBool, gDateTime, gEnum, gInt, gSort, gString, paginationParams } from "@collab/core";
import { z } from "zod";

export const MAX_NOTE_LENGTH = 1_000_000;

const noteable = { id: gString(), issue_iid: gInt() };

export const ListNotesParams = z.object({
  ...noteable,
  ...paginationParams,
  sort: gSort("desc"),
  order_by: gEnum(["created_at", "updated_at"] as const).default("created_at"),
  activity_filter: gEnum(["all_notes", "only_comments", "only_activity"] as const).default("all_notes"),
});
export type ListNotesParams = z.output<typeof ListNotesParams>;

export const NoteRefParams = z.object({ ...noteable, note_id: gInt() });

/** created_at must be after the Unix epoch, as GitLab validates it. */
const createdAt = gDateTime().refine((d) => d.getTime() > 0, { error: "is invalid" });

export const CreateNoteParams = z.object({
  ...noteable,
  body: gString(),
  confidential: gBool().optional(),
  internal: gBool().optional(),
  created_at: createdAt.optional(),
});
export type CreateNoteParams = z.output<typeof CreateNoteParams>;

/** Grape's `allow_blank: false`: an empty or whitespace body is refused before the model sees it. */
export const UpdateNoteParams = z.object({
  ...noteable,
  note_id: gInt(),
  body: gString()
    .refine((s) => s.trim() !== "", { error: "is empty" })
    .optional(),
  confidential: gBool().optional(),
});
export type UpdateNoteParams = z.output<typeof UpdateNoteParams>;

export const ListDiscussionsParams = z.object({ ...noteable, ...paginationParams });
export const DiscussionRefParams = z.object({ ...noteable, discussion_id: gString() });
export const CreateDiscussionParams = z.object({ ...noteable, body: gString(), created_at: createdAt.optional(), internal: gBool().optional(), confidential: gBool().optional() });
export type CreateDiscussionParams = z.output<typeof CreateDiscussionParams>;
export const ReplyParams = z.object({ ...noteable, discussion_id: gString(), note_id: gInt().optional(), body: gString(), created_at: createdAt.optional() });
export type ReplyParams = z.output<typeof ReplyParams>;
export const DiscussionNoteParams = z.object({ ...noteable, discussion_id: gString(), note_id: gInt() });
export const UpdateDiscussionNoteParams = z
  .object({ ...noteable, discussion_id: gString(), note_id: gInt(), body: gString().optional(), resolved: gBool().optional() })
  .superRefine((v, c) => {
    if (v.body === undefined && v.resolved === undefined)
      c.addIssue({ code: "custom", path: [], message: "body, resolved are missing, exactly one parameter must be provided" });
    if (v.body !== undefined && v.resolved !== undefined) c.addIssue({ code: "custom", path: [], message: "body, resolved are mutually exclusive" });
  });

export const ListStateEventsParams = z.object({ ...noteable, ...paginationParams });
export const StateEventRefParams = z.object({ ...noteable, resource_state_event_id: gInt() });
