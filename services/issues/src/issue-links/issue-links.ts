import type { Db } from "@collab/db";
import { addSystemNote } from "@collab/notes";
import type { IssueLinkType } from "@collab/issues-contract";
import { and, eq } from "drizzle-orm";
import { issueLinks, noteTables, type IssueLinkRow, type IssueRow } from "../db/schema";
import { issueTarget } from "../domain/system-notes";

/** How each side refers to the other in its system notes: short in the same project, full elsewhere. */
export interface LinkRefs {
  /** The target as the source's notes name it. */
  target: string;
  /** The source as the target's notes name it. */
  source: string;
}

/** GitLab's relate_issuable wording, seen from the issue whose note it is. */
const relatedNote = (type: string, ref: string) =>
  type === "blocks" ? `marked this issue as blocking ${ref}` : type === "is_blocked_by" ? `marked this issue as blocked by ${ref}` : `marked this issue as related to ${ref}`;

/**
 * Links `source` to `target` with a system note on each (GitLab's IssueLinks::CreateService):
 * `is_blocked_by` is stored as the target's `blocks`, as GitLab stores it. Answers the link, or
 * undefined when that pair is linked already (a concurrent request won).
 */
export async function linkIssues(tx: Db, source: IssueRow, target: IssueRow, type: IssueLinkType, actorId: number, refs: LinkRefs): Promise<IssueLinkRow | undefined> {
  const reversed = type === "is_blocked_by";
  const now = new Date();
  const [link] = await tx
    .insert(issueLinks)
    .values({ sourceId: reversed ? target.id : source.id, targetId: reversed ? source.id : target.id, linkType: reversed ? "blocks" : type, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!link) return undefined;
  const inverse = type === "blocks" ? "is_blocked_by" : type === "is_blocked_by" ? "blocks" : type;
  await addSystemNote(tx, noteTables, issueTarget(source), actorId, relatedNote(type, refs.target), now);
  await addSystemNote(tx, noteTables, issueTarget(target), actorId, relatedNote(inverse, refs.source), now);
  return link;
}

/** Removes a link with GitLab's unrelate_issuable note on each side; undefined when it was gone already. */
export async function unlinkIssues(tx: Db, link: IssueLinkRow, source: IssueRow, target: IssueRow, actorId: number, refs: LinkRefs): Promise<IssueLinkRow | undefined> {
  const [gone] = await tx.delete(issueLinks).where(eq(issueLinks.id, link.id)).returning();
  if (!gone) return undefined;
  const now = new Date();
  await addSystemNote(tx, noteTables, issueTarget(source), actorId, `removed the relation with ${refs.target}`, now);
  await addSystemNote(tx, noteTables, issueTarget(target), actorId, `removed the relation with ${refs.source}`, now);
  return gone;
}

/** A moved issue's links follow it to its copy (GitLab's MoveService#rewrite_related_issues). */
export async function moveIssueLinks(tx: Db, fromId: number, toId: number) {
  await tx.update(issueLinks).set({ sourceId: toId }).where(eq(issueLinks.sourceId, fromId));
  await tx.update(issueLinks).set({ targetId: toId }).where(eq(issueLinks.targetId, fromId));
}
