import { forbidden, notFound, requireAdmin, requireCaller, actionsOf, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Snippets } from "@collab/snippets-contract";
import { assertWritable } from "@collab/work-items";
import type { ActionSchema } from "moleculer";
import { loadProjectSnippet, snippetsProject } from "../domain/load";
import { canAdminSnippet, canCreateProjectSnippet } from "../domain/policy";
import { createSnippet, deleteSnippet, updateSnippet, userAgentDetailOf } from "../domain/snippets";
import { presentOne, rawContent, snippetsPage } from "./present";
import { routed } from "./routed";
import { assertSnippetWritable } from "./storage.actions";

/** /projects/:id/snippets: GitLab's lib/api/project_snippets.rb. */
export const projectSnippetsActions = (kit: ServiceKit): Record<string, ActionSchema> => {
  /** A snippet the caller may change (403 when they may only read it), in a writable project. */
  async function editable(ctx: Ctx<{ id: string; snippet_id: number }>) {
    requireCaller(ctx);
    const loaded = await loadProjectSnippet(ctx, kit.db, ctx.params.id, ctx.params.snippet_id);
    if (!canAdminSnippet(loaded.access, loaded.snippet)) throw forbidden();
    assertWritable(loaded.access);
    assertSnippetWritable(loaded.snippet);
    return loaded;
  }

  return actionsOf("snippets", [
    routed(Snippets.project.list, async (ctx) => {
      const access = await snippetsProject(ctx, ctx.params.id);
      return snippetsPage(kit, ctx, { kind: "project", projectId: access.project.id, caller: access.caller, role: access.role });
    }),
    routed(Snippets.project.get, async (ctx) => presentOne(kit, ctx, (await loadProjectSnippet(ctx, kit.db, ctx.params.id, ctx.params.snippet_id)).snippet)),
    routed(Snippets.project.create, async (ctx) => {
      const caller = requireCaller(ctx);
      const access = await snippetsProject(ctx, ctx.params.id);
      if (!canCreateProjectSnippet(access)) throw forbidden();
      assertWritable(access);
      const { id: _project, client_info, ...p } = ctx.params;
      const row = await createSnippet(kit, ctx, { ...p, projectId: access.project.id, authorId: caller.id, clientInfo: client_info });
      return presentOne(kit, ctx, row);
    }),
    routed(Snippets.project.update, async (ctx) => {
      const { snippet } = await editable(ctx);
      const { id: _project, snippet_id: _snippet, ...p } = ctx.params;
      return presentOne(kit, ctx, await updateSnippet(kit, ctx, snippet, p));
    }),
    routed(Snippets.project.delete, async (ctx) => {
      const { snippet } = await editable(ctx);
      return deleteSnippet(kit, snippet, requireCaller(ctx).id);
    }),
    routed(Snippets.project.raw, async (ctx) => rawContent(kit, ctx, (await loadProjectSnippet(ctx, kit.db, ctx.params.id, ctx.params.snippet_id)).snippet)),
    routed(Snippets.project.fileRaw, async (ctx) => {
      const { snippet } = await loadProjectSnippet(ctx, kit.db, ctx.params.id, ctx.params.snippet_id);
      return rawContent(kit, ctx, snippet, ctx.params);
    }),
    routed(Snippets.project.userAgentDetail, async (ctx) => {
      requireAdmin(ctx);
      const { snippet } = await loadProjectSnippet(ctx, kit.db, ctx.params.id, ctx.params.snippet_id);
      return userAgentDetail(kit, snippet.id);
    }),
  ]);
};

/** What GitLab shows administrators of a snippet's submission (404 UserAgentDetail Not Found when none was recorded). */
export async function userAgentDetail(kit: ServiceKit, snippetId: number) {
  const row = await userAgentDetailOf(kit.db, snippetId);
  if (!row) throw notFound("UserAgentDetail");
  return { user_agent: row.userAgent, ip_address: row.ipAddress, akismet_submitted: false };
}
