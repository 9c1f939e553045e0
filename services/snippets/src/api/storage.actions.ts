import { actionsOf, forbidden, implement, notFound, recordId } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Snippets } from "@collab/snippets-contract";
import { and, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { snippets, type SnippetRow } from "../db/schema";
import { presentSnippets } from "./present";

/** GitLab's wording for writes while a storage move holds the snippet (Gitlab::GitAccess :read_only). */
export function assertSnippetWritable(s: Pick<SnippetRow, "repositoryReadOnly">) {
  if (s.repositoryReadOnly) throw forbidden("The repository is temporarily read-only. Please try again later.");
}

/**
 * Bus-only actions for the admin service's snippet storage moves: the same contract namespaces
 * answers for projects and groups (which storage, which are on one, the read-only flag of a move).
 */
export const storageActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("snippets", [
    implement(Snippets.storage.state, async (ctx) => {
      const id = recordId(ctx.params.ref);
      const [row] = id ? await kit.db.select().from(snippets).where(eq(snippets.id, id)) : [];
      if (!row) throw notFound("Snippet");
      return { id: row.id, repository_storage: row.repositoryStorage, repository_read_only: row.repositoryReadOnly };
    }),
    implement(Snippets.storage.writableIds, async (ctx) => {
      const rows = await kit.db
        .select({ id: snippets.id })
        .from(snippets)
        .where(and(eq(snippets.repositoryStorage, ctx.params.storage), eq(snippets.repositoryReadOnly, false)))
        .orderBy(snippets.id);
      return rows.map((r) => r.id);
    }),
    /**
     * As namespaces' storage.setState: `expect_writable` changes only writable rows (two moves never
     * overlap), `locked_on` only rows read-only on that storage (a repeated switch changes nothing).
     * updated_at stays: a move is no edit of the snippet.
     */
    implement(Snippets.storage.setState, async (ctx) => {
      const { ids, read_only, storage, expect_writable, locked_on } = ctx.params;
      if (!ids.length) return [];
      const rows = await kit.db
        .update(snippets)
        .set({ repositoryReadOnly: read_only, ...(storage !== undefined && { repositoryStorage: storage }) })
        .where(
          and(
            inArray(snippets.id, ids),
            expect_writable ? eq(snippets.repositoryReadOnly, false) : undefined,
            locked_on !== undefined ? and(eq(snippets.repositoryReadOnly, true), eq(snippets.repositoryStorage, locked_on)) : undefined,
          ),
        )
        .returning({ id: snippets.id });
      return rows.map((r) => r.id);
    }),
    implement(Snippets.storage.containers, async (ctx) => {
      const ids = [...new Set(ctx.params.ids)];
      if (!ids.length) return [];
      const rows = await kit.db.select().from(snippets).where(inArray(snippets.id, ids));
      return (await presentSnippets(kit, ctx, rows)).map((s) => ({
        id: s.id,
        title: s.title,
        description: s.description,
        visibility: s.visibility,
        created_at: s.created_at,
        updated_at: s.updated_at,
        project_id: s.project_id,
        web_url: s.web_url,
        raw_url: s.raw_url,
        ssh_url_to_repo: s.ssh_url_to_repo,
        http_url_to_repo: s.http_url_to_repo,
      }));
    }),
  ]);
