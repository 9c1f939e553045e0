import { actionsOf, forbidden, requireAdmin, requireCaller, type Caller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Snippets } from "@collab/snippets-contract";
import { readableProjects } from "@collab/work-items";
import type { ActionSchema } from "moleculer";
import { loadPersonalSnippet } from "../domain/load";
import { canAdminSnippet } from "../domain/policy";
import { createSnippet, deleteSnippet, updateSnippet } from "../domain/snippets";
import type { SnippetsProject } from "../finders/snippets.finder";
import { presentOne, rawContent, snippetsPage } from "./present";
import { userAgentDetail } from "./project-snippets.actions";
import { routed } from "./routed";
import { assertSnippetWritable } from "./storage.actions";

/** The projects whose snippets the caller may list (null: all of them, for administrators). */
async function callerProjects(ctx: Ctx<unknown>, caller: Caller): Promise<SnippetsProject[] | null> {
  if (caller.admin) return null;
  const readable = await readableProjects(ctx);
  return readable.all ? null : readable.projects;
}

/** /snippets: GitLab's lib/api/snippets.rb (personal snippets; the lists as its SnippetsFinder). */
export const personalSnippetsActions = (kit: ServiceKit): Record<string, ActionSchema> => {
  /** A personal snippet the caller may change (403 when they may only read it). */
  async function editable(ctx: Ctx<{ id: number }>) {
    requireCaller(ctx);
    const loaded = await loadPersonalSnippet(ctx, kit.db, ctx.params.id);
    if (!canAdminSnippet(loaded.actor, loaded.snippet)) throw forbidden();
    assertSnippetWritable(loaded.snippet);
    return loaded;
  }

  return actionsOf("snippets", [
    routed(Snippets.personal.mine, async (ctx) => {
      const caller = requireCaller(ctx);
      return snippetsPage(kit, ctx, { kind: "mine", caller, projects: await callerProjects(ctx, caller) });
    }),
    routed(Snippets.personal.public, async (ctx) => {
      requireCaller(ctx);
      return snippetsPage(kit, ctx, { kind: "public" });
    }),
    routed(Snippets.personal.all, async (ctx) => {
      const caller = requireCaller(ctx);
      return snippetsPage(kit, ctx, { kind: "all", caller, projects: await callerProjects(ctx, caller) });
    }),
    routed(Snippets.personal.get, async (ctx) => presentOne(kit, ctx, (await loadPersonalSnippet(ctx, kit.db, ctx.params.id)).snippet)),
    routed(Snippets.personal.create, async (ctx) => {
      const caller = requireCaller(ctx);
      const { client_info, ...p } = ctx.params;
      return presentOne(kit, ctx, await createSnippet(kit, ctx, { ...p, projectId: null, authorId: caller.id, clientInfo: client_info }));
    }),
    routed(Snippets.personal.update, async (ctx) => {
      const { snippet } = await editable(ctx);
      const { id: _id, ...p } = ctx.params;
      return presentOne(kit, ctx, await updateSnippet(kit, ctx, snippet, p));
    }),
    routed(Snippets.personal.delete, async (ctx) => {
      const { snippet } = await editable(ctx);
      return deleteSnippet(kit, snippet, requireCaller(ctx).id);
    }),
    routed(Snippets.personal.raw, async (ctx) => rawContent(kit, ctx, (await loadPersonalSnippet(ctx, kit.db, ctx.params.id)).snippet)),
    routed(Snippets.personal.fileRaw, async (ctx) => rawContent(kit, ctx, (await loadPersonalSnippet(ctx, kit.db, ctx.params.id)).snippet, ctx.params)),
    routed(Snippets.personal.userAgentDetail, async (ctx) => {
      requireAdmin(ctx);
      const { snippet } = await loadPersonalSnippet(ctx, kit.db, ctx.params.id);
      return userAgentDetail(kit, snippet.id);
    }),
  ]);
};
