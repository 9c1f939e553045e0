import { announce, type ClientInfo, type Ctx } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { Snippets, type CreateSnippetInput, type SnippetVisibility, type UpdateSnippetInput } from "@collab/snippets-contract";
import { eq } from "drizzle-orm";
import { removeConversation } from "@collab/notes";
import { noteTables, snippets, userAgentDetails, type SnippetRow } from "../db/schema";
import { applyFileActions, updateFirstFile, writeFiles, type SnippetFile } from "../storage/snippet-files";
import { commitSnippetChanges, createSnippetRepository } from "../storage/snippet-repository";

/** A snippet as its events carry it. */
export const eventPayload = (s: SnippetRow, actorId: number) => ({ id: s.id, project_id: s.projectId, actor_id: actorId, title: s.title, visibility: s.visibility as SnippetVisibility });

export interface NewSnippet extends Omit<CreateSnippetInput, "client_info"> {
  projectId: number | null;
  authorId: number;
  clientInfo?: ClientInfo;
}

/** The files a create names: files[] or the single file_name + content (GitLab names an unnamed one `snippetfile1.txt`). */
const filesOfCreate = (p: NewSnippet): SnippetFile[] =>
  p.files?.map((f) => ({ path: f.file_path, content: f.content })) ?? [{ path: p.file_name ?? "snippetfile1.txt", content: p.content ?? "" }];

/** A snippet, its files, its repository and who submitted it, in one transaction with its created event. */
export function createSnippet(kit: ServiceKit, ctx: Ctx<unknown>, p: NewSnippet): Promise<SnippetRow> {
  const files = filesOfCreate(p);
  return kit.events.transact(
    async (tx) => {
      const [row] = await tx
        .insert(snippets)
        .values({ projectId: p.projectId, authorId: p.authorId, title: p.title, description: p.description ?? null, visibility: p.visibility })
        .returning();
      await writeFiles(tx, row.id, files);
      await createSnippetRepository(ctx, row, files);
      if (p.clientInfo) await tx.insert(userAgentDetails).values({ snippetId: row.id, userAgent: p.clientInfo.user_agent, ipAddress: p.clientInfo.ip_address });
      return row;
    },
    (row) => [announce(Snippets.events.snippetCreated, eventPayload(row, p.authorId))],
  );
}

/** Changes a snippet's attributes and files (committed to its repository) in one transaction; updated_at moves. */
export async function updateSnippet(kit: ServiceKit, ctx: Ctx<unknown>, snippet: SnippetRow, p: UpdateSnippetInput): Promise<SnippetRow> {
  return kit.db.transaction(async (tx) => {
    let actions = p.files ?? [];
    if (p.files) await applyFileActions(tx, snippet.id, p.files);
    else if (p.file_name !== undefined || p.content !== undefined) actions = await updateFirstFile(tx, snippet.id, p);
    await commitSnippetChanges(ctx, snippet, actions);
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

/** Deletes a snippet, its files, user agent detail and notes, with its deleted event; answers nothing (204). */
export async function deleteSnippet(kit: ServiceKit, snippet: SnippetRow, actorId: number): Promise<undefined> {
  await kit.events.transact(
    async (tx) => {
      await removeConversation(tx, noteTables, "Snippet", [snippet.id]);
      await tx.delete(snippets).where(eq(snippets.id, snippet.id));
    },
    () => [announce(Snippets.events.snippetDeleted, eventPayload(snippet, actorId))],
  );
  return undefined;
}

/** What was recorded of a snippet's submission, if anything. */
export async function userAgentDetailOf(db: Db, snippetId: number) {
  const [row] = await db.select().from(userAgentDetails).where(eq(userAgentDetails.snippetId, snippetId));
  return row;
}
