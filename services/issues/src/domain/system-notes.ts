import { SystemNote, type NoteableTarget } from "@collab/notes";
import type { IssueRow } from "../db/schema";

/** An issue as the notes tables name it. */
export const issueTarget = (issue: Pick<IssueRow, "id" | "projectId">): NoteableTarget => ({ type: "Issue", id: issue.id, projectId: issue.projectId });

/** GitLab's wording for the issue changes it records as notes: the shared ones and the issue's own. */
export const IssueSystemNote = {
  ...SystemNote,
  locked: (on: boolean) => SystemNote.locked(on, "issue"),
  confidential: (on: boolean) => (on ? "made the issue confidential" : "made the issue visible to everyone"),
  issueType: (from: string, to: string) => `changed type from ${from.replace("_", " ")} to ${to.replace("_", " ")}`,
  movedTo: (ref: string) => `moved to ${ref}`,
  movedFrom: (ref: string) => `moved from ${ref}`,
  clonedTo: (ref: string) => `cloned to ${ref}`,
  clonedFrom: (ref: string) => `cloned from ${ref}`,
  addedToEpic: (ref: string) => `added to epic ${ref}`,
  removedFromEpic: (ref: string) => `removed from epic ${ref}`,
  changedEpic: (ref: string) => `changed epic to ${ref}`,
};
