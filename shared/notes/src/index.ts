/**
 * Notes, discussions (threads), system notes, resource state events and iid allocation, shared by
 * every service that owns a noteable (issues and epics, merge requests and commits, snippets): one implementation over the
 * service's own tables, parameterised by a NoteableKind descriptor.
 */
export * from "./kind";
export * from "./db/tables";
export * from "./api/entity";
export * from "./actions";
export { addSystemNote, newDiscussionId, SystemNote, type NoteableTarget } from "./domain/system-notes";
export { recordStateEvent, type RecordedState, type StateEventInput } from "./domain/state-events";
export * from "./domain/resource-events";
export * from "./api/resource-events.entity";
export { findResourceEvent, findResourceEvents, type ResourceEventRows } from "./finders/resource-events.finder";
export { copyNotes, removeConversation, removeProjectNotes, stateEventColumn } from "./domain/conversation";
export { bodyError, createNote, deleteNote, replyToDiscussion, updateNote, type NewNote, type NoteWriteKind } from "./domain/notes";
export * from "./domain/resolution";
export { countUnresolvedThreads, findAllNotes, findDiscussion, findDiscussions, findNote, findNotes, findStateEvent, findStateEvents, userNoteCounts, type NoteableScope, type NoteVisibility } from "./finders/notes.finder";
export { awardEmojiActions, type AwardableKind } from "./award-emoji/award-emoji.actions";
export { emojiName, UPVOTE, DOWNVOTE } from "./award-emoji/emoji-names";
export { reactionCondition } from "./award-emoji/award-emoji.finder";
export { type BumpVotes } from "./award-emoji/award-emoji";
export { timeTrackingActions, type TimeTrackableKind } from "./time-tracking/time-tracking.actions";
export { TimeTrackingNote, type TimeColumns } from "./time-tracking/time-tracking";
export { findDiffLine, lineCode, type DiffLine } from "./domain/diff-positions";
