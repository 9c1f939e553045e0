import { callerOf, featureHidden, notFound, type Ctx } from "@collab/core";
import type { Db } from "@collab/db";
import { authorizeProject, type ProjectAccess } from "@collab/work-items";
import { findSnippet } from "../finders/snippets.finder";
import type { SnippetRow } from "../db/schema";
import { canReadSnippet, type SnippetActor } from "./policy";

/** A project whose snippets the caller may reach: 404 when the project is hidden or its snippets feature is (disabled, or private to members). */
export async function snippetsProject(ctx: Ctx<unknown>, ref: string | number): Promise<ProjectAccess & SnippetActor> {
  const access = await authorizeProject(ctx, ref);
  if (featureHidden(access.project.snippets_access_level, access.role)) throw notFound("Project");
  return { ...access, caller: callerOf(ctx) };
}

export interface LoadedProjectSnippet {
  access: ProjectAccess & SnippetActor;
  snippet: SnippetRow;
}

/** A snippet of the path's project the caller may read; one of another project is not found here. */
export async function loadProjectSnippet(ctx: Ctx<unknown>, db: Db, ref: string | number, snippetId: number): Promise<LoadedProjectSnippet> {
  const access = await snippetsProject(ctx, ref);
  const snippet = await findSnippet(db, snippetId, { projectId: access.project.id });
  if (!snippet || !canReadSnippet(access, snippet)) throw notFound("Snippet");
  return { access, snippet };
}

export interface LoadedPersonalSnippet {
  /** Personal snippets belong to no project: the role is always 0. */
  actor: SnippetActor;
  snippet: SnippetRow;
}

/** A personal snippet the caller may read (project snippets are not reached through /snippets/:id). */
export async function loadPersonalSnippet(ctx: Ctx<unknown>, db: Db, snippetId: number): Promise<LoadedPersonalSnippet> {
  const actor = { caller: callerOf(ctx), role: 0 };
  const snippet = await findSnippet(db, snippetId, { projectId: null });
  if (!snippet || !canReadSnippet(actor, snippet)) throw notFound("Snippet");
  return { actor, snippet };
}
