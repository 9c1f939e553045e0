import { announce, type ClientInfo } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { Snippets, type CreateSnippetInput, type SnippetVisibility, type UpdateSnippetInput } from "@collab/snippets-contract";
import { eq } from "drizzle-orm";
import { snippets, userAgentDetails, type SnippetRow } from "../db/schema";
import { applyFileActions, updateFirstFile, writeFiles, type SnippetFile } from "../storage/snippet-files";

export interface NewSnippet extends Omit<CreateSnippetInput, "client_info"> {
  projectId: number | null;
  authorId: number;
  clientInfo?: ClientInfo;
}

/** The files a create names: files[] or the single file_name + content (GitLab names an unnamed one `snippetfile1.txt`). */
const filesOfCreate = (p: NewSnippet): SnippetFile[] =>
  p.files?.map((f) => ({ path: f.file_path, content: f.content })) ?? [{ path: p.file_name ?? "snippetfile1.txt", content: p.content ?? "" }];

/** A snippet, its files and who submitted it, in one transaction with its created event. */
export function createSnippet(kit: ServiceKit, p: NewSnippet): Promise<SnippetRow> {
  return kit.events.transact(
    async (tx) => {
      const [row] = await tx
        .insert(snippets)
        .values({ projectId: p.projectId, authorId: p.authorId, title: p.title, description: p.description ?? null, visibility: p.visibility })
        .returning();
      await writeFiles(tx, row.id, filesOfCreate(p));
      if (p.clientInfo) await tx.insert(userAgentDetails).values({ snippetId: row.id, userAgent: p.clientInfo.user_agent, ipAddress: p.clientInfo.ip_address });
      return row;
    },
    (row) => [announce(Snippets.events.snippetCreated, { id: row.id, project_id: row.projectId, actor_id: p.authorId, title: row.title, visibility: row.visibility as SnippetVisibility })],
  );
}

/** Changes a snippet's attributes and files in one transaction; updated_at moves. */
export async function updateSnippet(db: Db, snippet: SnippetRow, p: UpdateSnippetInput): Promise<SnippetRow> {
  return db.transaction(async (tx) => {
    if (p.files) await applyFileActions(tx, snippet.id, p.files);
    else if (p.file_name !== undefined || p.content !== undefined) await updateFirstFile(tx, snippet.id, p);
    const [row] = await tx
      .update(snippets)
      .set({
        ...(p.title !== undefined ? { title: p.title } : {}),
        ...(p.description !== undefined ? { description: p.description } : {}),
        ...(p.visibility !== undefined ? { visibility: p.visibility } : {}),
        updatedAt: new Date(),
      })
      .where(eq(snippets.id, snippet.id))
      .returning();
    return row;
  });
}

/** Deletes a snippet (its files and user agent detail go with it); answers nothing (204). */
export async function deleteSnippet(db: Db, snippetId: number): Promise<undefined> {
  await db.delete(snippets).where(eq(snippets.id, snippetId));
  return undefined;
}

/** What was recorded of a snippet's submission, if anything. */
export async function userAgentDetailOf(db: Db, snippetId: number) {
  const [row] = await db.select().from(userAgentDetails).where(eq(userAgentDetails.snippetId, snippetId));
  return row;
}
