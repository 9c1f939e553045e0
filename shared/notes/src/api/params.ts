// The notes params live in the notes contract (@collab/notes-contract); re-exported for the code here.
export { MAX_NOTE_LENGTH, noteParams, type ListNotesFilters, type NewCommentParams, type NoteParams } from "@collab/notes-contract";
