import type { ActionSchema } from "moleculer";
import { action } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { operationsProject } from "../domain/access";
import { GetSettingParams, PatchSettingParams, PutSettingParams } from "./settings.params";
import { presentSetting } from "./setting.entity";
import { configuredSetting, findSetting, saveSetting } from "./settings.service";

export const settingsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "settings.get": action({
    input: () => GetSettingParams,
    idempotent: true,
    async handler(ctx) {
      const { project } = await operationsProject(ctx, ctx.params.id);
      return presentSetting(await configuredSetting(kit.db, project.id));
    },
  }),
  "settings.patch": action({
    input: () => PatchSettingParams,
    async handler(ctx) {
      const { project } = await operationsProject(ctx, ctx.params.id);
      const existing = await configuredSetting(kit.db, project.id);
      return presentSetting(await saveSetting(kit.db, project.id, existing, { enabled: ctx.params.active, integrated: ctx.params.integrated }));
    },
  }),
  "settings.put": action({
    input: () => PutSettingParams,
    async handler(ctx) {
      const { project } = await operationsProject(ctx, ctx.params.id);
      const existing = await findSetting(kit.db, project.id);
      return presentSetting(await saveSetting(kit.db, project.id, existing, { enabled: ctx.params.active, integrated: ctx.params.integrated }));
    },
  }),
});
