import type { Db } from "@collab/db";
import { eq } from "drizzle-orm";
import { removeProjectNotes } from "@collab/notes";
import { noteTables, snippets } from "../db/schema";
import { removeFiles } from "../storage/snippet-files";

/** A deleted project's snippets and their notes go with it, in the consumer's transaction; repeating it removes nothing more. */
export async function removeProjectSnippets(payload: { projectId: number }, tx: Db): Promise<number> {
  const gone = await tx.delete(snippets).where(eq(snippets.projectId, payload.projectId)).returning({ id: snippets.id });
  await removeFiles(tx, gone.map((s) => s.id));
  await removeProjectNotes(tx, noteTables, payload.projectId);
  return gone.length;
}
