/** The params of the notes, discussions and resource state events actions (moved from @collab/notes' api/params). */
import { gBool, gDateTime, gEnum, gInt, gSort, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** The noteable_type stored on notes and answered by the API. */
export type NoteableType = "Issue" | "MergeRequest" | "Commit" | "Snippet" | "Epic";

/** The URL param naming the noteable under /projects/:id (a snippet by its id: snippets have no iid), or under /groups/:id (an epic, by its id). */
export type NoteablePathParam = "issue_iid" | "merge_request_iid" | "commit_id" | "snippet_id" | "epic_id";

/** Commits are noteables named by sha (or a branch or tag); every other noteable by an integer iid (or a snippet's id). */
type ShaKeyedPathParam = "commit_id";
type NoteableKeySchema<K extends NoteablePathParam> = K extends ShaKeyedPathParam ? ReturnType<typeof gString> : ReturnType<typeof gInt>;

export const MAX_NOTE_LENGTH = 1_000_000;

/** created_at must be after the Unix epoch, as GitLab validates it. */
const createdAt = gDateTime().refine((d) => d.getTime() > 0, { error: "is invalid" });

/** :id and the noteable's key param (an iid, or a commit's sha), named as the kind's route names it. */
const noteableShape = <K extends NoteablePathParam>(pathParam: K) =>
  ({ id: gString(), [pathParam]: pathParam === "commit_id" ? gString() : gInt() }) as { id: ReturnType<typeof gString> } & Record<K, NoteableKeySchema<K>>;

/** A line of a diff in a position's line_range, as GitLab's discussions params declare it. */
const LineRangeEnd = z.object({ line_code: gString().optional(), type: gString().optional(), old_line: gInt().optional(), new_line: gInt().optional() });

/**
 * Where a diff note sits (DiffNote), as GitLab's discussions params declare it: the diff refs and
 * the position type are required, the rest depends on the type (text lines, image coordinates).
 */
export const DiffPosition = z.object({
  base_sha: gString(),
  start_sha: gString(),
  head_sha: gString(),
  position_type: z.enum(["text", "image", "file"], { error: "does not have a valid value" }),
  new_path: gString().optional(),
  old_path: gString().optional(),
  new_line: gInt().optional(),
  old_line: gInt().optional(),
  line_range: z.object({ start: LineRangeEnd.optional(), end: LineRangeEnd.optional() }).optional(),
  width: gInt().optional(),
  height: gInt().optional(),
  x: gInt().optional(),
  y: gInt().optional(),
});
export type DiffPositionParams = z.output<typeof DiffPosition>;

/** The params schemas of every notes, discussions and state-events action of one noteable kind. */
export function noteParams<K extends NoteablePathParam>(pathParam: K) {
  const noteable = noteableShape(pathParam);
  const UpdateDiscussionNote = z
    .object({ ...noteable, discussion_id: gString(), note_id: gInt(), body: gString().optional(), resolved: gBool().optional() })
    // Typed loosely: inside this generic function zod cannot spell out the object's output type.
    .superRefine((raw: unknown, c) => {
      const v = raw as { body?: string; resolved?: boolean };
      if (v.body === undefined && v.resolved === undefined)
        c.addIssue({ code: "custom", path: [], message: "body, resolved are missing, exactly one parameter must be provided" });
      if (v.body !== undefined && v.resolved !== undefined) c.addIssue({ code: "custom", path: [], message: "body, resolved are mutually exclusive" });
    });
  /** A comment or a new thread: the same params. */
  const CreateNote = z.object({ ...noteable, body: gString(), confidential: gBool().optional(), internal: gBool().optional(), created_at: createdAt.optional() });
  return {
    ListNotes: z.object({
      ...noteable,
      ...paginationParams,
      sort: gSort("desc"),
      order_by: gEnum(["created_at", "updated_at"] as const).default("created_at"),
      activity_filter: gEnum(["all_notes", "only_comments", "only_activity"] as const).default("all_notes"),
    }),
    NoteRef: z.object({ ...noteable, note_id: gInt() }),
    CreateNote,
    /** Grape's `allow_blank: false`: an empty or whitespace body is refused before the model sees it. */
    UpdateNote: z.object({
      ...noteable,
      note_id: gInt(),
      body: gString()
        .refine((s) => s.trim() !== "", { error: "is empty" })
        .optional(),
      confidential: gBool().optional(),
    }),
    ListDiscussions: z.object({ ...noteable, ...paginationParams }),
    DiscussionRef: z.object({ ...noteable, discussion_id: gString() }),
    /** position: a diff note, on kinds that take them (NoteableKind.diffNotes); ignored elsewhere, as Grape ignores undeclared params. */
    CreateDiscussion: CreateNote.extend({ position: DiffPosition.optional() }),
    Reply: z.object({ ...noteable, discussion_id: gString(), note_id: gInt().optional(), body: gString(), created_at: createdAt.optional() }),
    DiscussionNote: z.object({ ...noteable, discussion_id: gString(), note_id: gInt() }),
    UpdateDiscussionNote,
    /** PUT /discussions/:discussion_id, resolvable kinds only. */
    ResolveDiscussion: z.object({ ...noteable, discussion_id: gString(), resolved: gBool() }),
    ListStateEvents: z.object({ ...noteable, ...paginationParams }),
    /** GET …/participants: the issues API answers them all, the merge requests API a page. */
    Participants: z.object({ ...noteable }),
    PagedParticipants: z.object({ ...noteable, ...paginationParams }),
    StateEventRef: z.object({ ...noteable, resource_state_event_id: gInt() }),
    ListResourceEvents: z.object({ ...noteable, ...paginationParams }),
    LabelEventRef: z.object({ ...noteable, resource_label_event_id: gInt() }),
    MilestoneEventRef: z.object({ ...noteable, resource_milestone_event_id: gInt() }),
    WeightEventRef: z.object({ ...noteable, resource_weight_event_id: gInt() }),
    IterationEventRef: z.object({ ...noteable, resource_iteration_event_id: gInt() }),
  };
}

/** What a new comment or thread says. */
export interface NewCommentParams {
  body: string;
  internal?: boolean;
  confidential?: boolean;
  created_at?: Date;
  position?: DiffPositionParams;
}

export type NoteParams = ReturnType<typeof noteParams<NoteablePathParam>>;
/** The notes list filters the finder reads. */
export type ListNotesFilters = Pick<z.output<NoteParams["ListNotes"]>, "page" | "per_page" | "sort" | "order_by" | "activity_filter">;
