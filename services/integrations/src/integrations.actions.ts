import { implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentBasic, presentIntegration } from "./api/integration.entity";
import { parseSetup } from "./api/integration.params";
import { Integrations, kindOf, slugsFor } from "@collab/integrations-contract";
import { managedLevel, type Level } from "./domain/levels";
import { effectiveSettings, findEffective, reset, setUp } from "./domain/settings";

/**
 * The integrations settings API of projects and groups (GitLab's lib/api/integrations.rb):
 * list the active ones, read, set up, and disable (reset) one by slug.
 */
export function integrationsActions(kit: ServiceKit): Record<string, ActionSchema> {
  const enterprise = () => kit.config.LICENSE_TIER !== "free";
  const levelActions = (kind: Level["kind"]): Record<string, ActionSchema> => {
    const slugs = () => slugsFor(kind);
    return {
      [`${kind}.list`]: implement(
        Integrations[kind].list,
        async (ctx) => {
          const level = await managedLevel(ctx, kind, ctx.params.id);
          const all = await effectiveSettings(kit.db, level, slugs());
          return [...all.values()].filter((e) => e.source.active).map((e) => presentBasic(e, enterprise()));
        },
        { visibility: "published" },
      ),
      [`${kind}.get`]: implement(
        Integrations[kind].get,
        async (ctx) => {
          const level = await managedLevel(ctx, kind, ctx.params.id);
          return presentIntegration(await findEffective(kit.db, level, ctx.params.slug), enterprise());
        },
        { visibility: "published" },
      ),
      [`${kind}.setUp`]: implement(
        Integrations[kind].setUp,
        async (ctx) => {
          const integration = kindOf(ctx.params.slug);
          const params = parseSetup(integration, ctx.params);
          const level = await managedLevel(ctx, kind, ctx.params.id);
          await setUp(kit.db, kit.keyring, level, integration, params);
          return presentIntegration(await findEffective(kit.db, level, integration.slug), enterprise());
        },
        { visibility: "published" },
      ),
      [`${kind}.reset`]: implement(
        Integrations[kind].reset,
        async (ctx) => {
          const level = await managedLevel(ctx, kind, ctx.params.id);
          await reset(kit.db, level, ctx.params.slug);
          return null;
        },
        { visibility: "published" },
      ),
    };
  };
  return { ...levelActions("project"), ...levelActions("group") };
}
