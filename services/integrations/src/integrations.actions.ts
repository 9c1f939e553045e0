import { action } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentBasic, presentIntegration } from "./api/integration.entity";
import { LevelRef, parseSetup, SlugRef } from "./api/integration.params";
import { kindOf, slugsFor } from "./catalog/kinds";
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
      [`${kind}.list`]: action({
        input: () => LevelRef,
        idempotent: true,
        async handler(ctx) {
          const level = await managedLevel(ctx, kind, ctx.params.id);
          const all = await effectiveSettings(kit.db, level, slugs());
          return [...all.values()].filter((e) => e.source.active).map((e) => presentBasic(e, enterprise()));
        },
      }),
      [`${kind}.get`]: action({
        input: () => SlugRef(slugs()),
        idempotent: true,
        async handler(ctx) {
          const level = await managedLevel(ctx, kind, ctx.params.id);
          return presentIntegration(await findEffective(kit.db, level, ctx.params.slug), enterprise());
        },
      }),
      [`${kind}.setUp`]: action({
        input: () => SlugRef(slugs()),
        async handler(ctx) {
          const integration = kindOf(ctx.params.slug);
          const params = parseSetup(integration, ctx.params);
          const level = await managedLevel(ctx, kind, ctx.params.id);
          await setUp(kit.db, kit.keyring, level, integration, params);
          return presentIntegration(await findEffective(kit.db, level, integration.slug), enterprise());
        },
      }),
      [`${kind}.reset`]: action({
        input: () => SlugRef(slugs()),
        async handler(ctx) {
          const level = await managedLevel(ctx, kind, ctx.params.id);
          await reset(kit.db, level, ctx.params.slug);
          return null;
        },
      }),
    };
  };
  return { ...levelActions("project"), ...levelActions("group") };
}
