import type { Db } from "@collab/db";
import { eq } from "drizzle-orm";
import { snippets } from "../db/schema";
import { removeFiles } from "../storage/snippet-files";

/** A deleted project's snippets go with it, in the consumer's transaction; repeating it removes nothing more. */
export async function removeProjectSnippets(payload: { projectId: number }, tx: Db): Promise<number> {
  const gone = await tx.delete(snippets).where(eq(snippets.projectId, payload.projectId)).returning({ id: snippets.id });
  await removeFiles(tx, gone.map((s) => s.id));
  return gone.length;
}
