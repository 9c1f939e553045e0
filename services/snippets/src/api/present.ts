import { callerOf, fileResponse, notFound, page, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { projectMap, userMap } from "@collab/work-items";
import type { SnippetRow } from "../db/schema";
import { listSnippets, type ListFilters, type SnippetScope } from "../finders/snippets.finder";
import { filesOf } from "../storage/snippet-files";
import { presentSnippet, SNIPPET_REF } from "./snippet.entity";

/** Snippets as the API answers them: their files, authors and projects fetched once for the whole page. */
export async function presentSnippets(kit: ServiceKit, ctx: Ctx<unknown>, rows: SnippetRow[]) {
  const projectIds = rows.flatMap((r) => (r.projectId === null ? [] : [r.projectId]));
  const [files, users, projects] = await Promise.all([filesOf(kit.db, rows.map((r) => r.id)), userMap(ctx, rows.map((r) => r.authorId)), projectMap(ctx, projectIds)]);
  const c = { baseUrl: kit.baseUrl, users, projects, admin: callerOf(ctx)?.admin === true };
  return rows.map((r) => presentSnippet(r, files.get(r.id)!, c));
}

/** A page of the snippets a list shows, presented, with the pagination total. */
export async function snippetsPage(kit: ServiceKit, ctx: Ctx<ListFilters>, scope: SnippetScope) {
  const { rows, total } = await listSnippets(kit.db, scope, ctx.params);
  return page(await presentSnippets(kit, ctx, rows), total, ctx.params);
}

export const presentOne = async (kit: ServiceKit, ctx: Ctx<unknown>, row: SnippetRow) => (await presentSnippets(kit, ctx, [row]))[0];

/** A snippet file's content as text/plain: the first file's for `/raw`, the named one's for `/files/:ref/:file_path/raw`. */
export async function rawContent(kit: ServiceKit, ctx: Ctx<unknown>, snippet: SnippetRow, file?: { ref: string; file_path: string }) {
  const files = (await filesOf(kit.db, [snippet.id])).get(snippet.id)!;
  const found = file ? (file.ref === SNIPPET_REF ? files.find((f) => f.path === file.file_path) : undefined) : files[0];
  if (!found) throw notFound("File");
  const name = found.path.split("/").pop()!;
  return fileResponse(ctx, Buffer.from(found.content, "utf8"), { filename: name, contentType: "text/plain; charset=utf-8" });
}
