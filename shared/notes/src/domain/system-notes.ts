import type { Db } from "@collab/db";
import { randomBytes } from "node:crypto";
import type { NotesTables } from "../db/tables";
import type { NoteableType } from "../kind";

export const newDiscussionId = () => randomBytes(20).toString("hex");

/** Which noteable a note belongs to, as the notes table records it. */
export interface NoteableTarget {
  type: NoteableType;
  id: number;
  projectId: number;
}

/** A system note, written inside the caller's transaction together with the change it records. */
export async function addSystemNote(tx: Db, tables: NotesTables, noteable: NoteableTarget, authorId: number, body: string, at = new Date()): Promise<void> {
  await tx.insert(tables.notes).values({
    noteableType: noteable.type,
    noteableId: noteable.id,
    projectId: noteable.projectId,
    authorId,
    body,
    system: true,
    discussionId: newDiscussionId(),
    createdAt: at,
    updatedAt: at,
  });
}

/** GitLab's wording for changes any noteable records as notes (state changes are resource events instead). */
export const SystemNote = {
  title: (from: string, to: string) => `changed title from **${from}** to **${to}**`,
  description: () => "changed the description",
  assignees: (added: string[], removed: string[]) => {
    const parts: string[] = [];
    if (added.length) parts.push(`assigned to ${added.map((u) => `@${u}`).join(" and ")}`);
    if (removed.length) parts.push(`unassigned ${removed.map((u) => `@${u}`).join(" and ")}`);
    return parts.join(" and ");
  },
  dueDate: (date: string | null) => (date ? `changed due date to ${formatDate(date)}` : "removed due date"),
  /** noun: "issue", "merge request". */
  locked: (on: boolean, noun: string) => (on ? `locked the discussion in this ${noun}` : `unlocked the discussion in this ${noun}`),
};

function formatDate(date: string) {
  const d = new Date(`${date}T00:00:00Z`);
  return d.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
}
