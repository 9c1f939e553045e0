import type { Db } from "@collab/db";
import { randomBytes } from "node:crypto";
import { notes } from "../db/schema";

export const newDiscussionId = () => randomBytes(20).toString("hex");

/** A system note on an issue, written in the same transaction as the change it records. */
export async function addSystemNote(db: Db, issue: { id: number; projectId: number }, authorId: number, body: string, at = new Date()) {
  await db.insert(notes).values({
    noteableType: "Issue",
    noteableId: issue.id,
    projectId: issue.projectId,
    authorId,
    body,
    system: true,
    discussionId: newDiscussionId(),
    createdAt: at,
    updatedAt: at,
  });
}

/** GitLab's wording for the changes it records as notes (state changes are resource events instead). */
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
  confidential: (on: boolean) => (on ? "made the issue confidential" : "made the issue visible to everyone"),
  locked: (on: boolean) => (on ? "locked the discussion in this issue" : "unlocked the discussion in this issue"),
  issueType: (from: string, to: string) => `changed type from ${from.replace("_", " ")} to ${to.replace("_", " ")}`,
  movedTo: (ref: string) => `moved to ${ref}`,
  movedFrom: (ref: string) => `moved from ${ref}`,
  clonedTo: (ref: string) => `cloned to ${ref}`,
  clonedFrom: (ref: string) => `cloned from ${ref}`,
};

function formatDate(date: string) {
  const d = new Date(`${date}T00:00:00Z`);
  return d.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
}
