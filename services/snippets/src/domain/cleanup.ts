import { announce } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { Snippets } from "@collab/snippets-contract";
import { eq } from "drizzle-orm";
import { removeProjectNotes } from "@collab/notes";
import { noteTables, snippets } from "../db/schema";
import { removeFiles } from "../storage/snippet-files";
import { eventPayload } from "./snippets";

/**
 * A deleted project's snippets and their notes go with it, in the consumer's transaction; repeating
 * it removes nothing more. Each snippet announces its deletion (its repository goes with it), the
 * author standing as the actor: the project's deletion names none.
 */
export async function removeProjectSnippets(kit: ServiceKit, payload: { projectId: number }, tx: Db): Promise<number> {
  const gone = await tx.delete(snippets).where(eq(snippets.projectId, payload.projectId)).returning();
  await removeFiles(tx, gone.map((s) => s.id));
  await removeProjectNotes(tx, noteTables, payload.projectId);
  const announced = gone.map((s) => announce(Snippets.events.snippetDeleted, eventPayload(s, s.authorId)));
  if (announced.length) await kit.events.publishIn(tx, announced);
  return gone.length;
}
