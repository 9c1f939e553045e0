import { badRequestMessage } from "@collab/core";
import type { Db } from "@collab/db";
import type { SnippetFileAction } from "@collab/snippets-contract";
import { asc, eq, inArray } from "drizzle-orm";
import { snippetFiles } from "../db/schema";

/**
 * The files table the API reads a snippet's files from (lists and pages read it in one statement).
 * Every write here is also committed to the snippet's repository (snippet-repository.ts).
 */

export interface SnippetFile {
  path: string;
  content: string;
}

/** The files of these snippets, each snippet's in the order they were added. */
export async function filesOf(db: Db, snippetIds: number[]): Promise<Map<number, SnippetFile[]>> {
  const out = new Map<number, SnippetFile[]>(snippetIds.map((id) => [id, []]));
  if (!snippetIds.length) return out;
  const rows = await db.select().from(snippetFiles).where(inArray(snippetFiles.snippetId, snippetIds)).orderBy(asc(snippetFiles.snippetId), asc(snippetFiles.position));
  for (const r of rows) out.get(r.snippetId)!.push({ path: r.path, content: r.content });
  return out;
}

const duplicatePath = () => badRequestMessage({ files: ["have duplicate paths"] });

/** A new snippet's files, in the caller's transaction. */
export async function writeFiles(tx: Db, snippetId: number, files: SnippetFile[]): Promise<void> {
  if (new Set(files.map((f) => f.path)).size !== files.length) throw duplicatePath();
  await tx.insert(snippetFiles).values(files.map((f, position) => ({ snippetId, path: f.path, content: f.content, position })));
}

/**
 * Applies an update's file actions (create, update, delete, move) in order, in the caller's
 * transaction, as GitLab commits them to the snippet's repository: a missing file or an existing
 * target is a 400, and a snippet keeps at least one file.
 */
export async function applyFileActions(tx: Db, snippetId: number, actions: SnippetFileAction[]): Promise<void> {
  const current = (await filesOf(tx, [snippetId])).get(snippetId)!;
  const files = new Map(current.map((f) => [f.path, f.content]));
  const order = current.map((f) => f.path);
  const missing = (path: string) => badRequestMessage({ files: [`A file with this name doesn't exist: ${path}`] });
  for (const a of actions) {
    const path = a.file_path ?? a.previous_path!;
    if (a.action === "create") {
      if (files.has(path)) throw badRequestMessage({ files: [`A file with this name already exists: ${path}`] });
      files.set(path, a.content!);
      order.push(path);
    } else if (a.action === "update") {
      if (!files.has(path)) throw missing(path);
      if (a.content !== undefined) files.set(path, a.content);
    } else if (a.action === "delete") {
      if (!files.delete(path)) throw missing(path);
      order.splice(order.indexOf(path), 1);
    } else {
      const from = a.previous_path!;
      if (!files.has(from)) throw missing(from);
      if (path !== from && files.has(path)) throw badRequestMessage({ files: [`A file with this name already exists: ${path}`] });
      const content = a.content ?? files.get(from)!;
      files.delete(from);
      files.set(path, content);
      order[order.indexOf(from)] = path;
    }
  }
  if (!order.length) throw badRequestMessage({ files: ["can't be empty"] });
  await tx.delete(snippetFiles).where(eq(snippetFiles.snippetId, snippetId));
  await writeFiles(tx, snippetId, order.map((path) => ({ path, content: files.get(path)! })));
}

/** The single-file API's update: the first file renamed and/or rewritten; answers the action applied. */
export async function updateFirstFile(tx: Db, snippetId: number, change: { file_name?: string; content?: string }): Promise<SnippetFileAction[]> {
  const [first] = (await filesOf(tx, [snippetId])).get(snippetId)!;
  if (!first) return [];
  const actions: SnippetFileAction[] = [{ action: "move", previous_path: first.path, file_path: change.file_name ?? first.path, content: change.content }];
  await applyFileActions(tx, snippetId, actions);
  return actions;
}

/** Removes these snippets' files (a deleted project's snippets), in the caller's transaction. */
export async function removeFiles(tx: Db, snippetIds: number[]): Promise<void> {
  if (snippetIds.length) await tx.delete(snippetFiles).where(inArray(snippetFiles.snippetId, snippetIds));
}
