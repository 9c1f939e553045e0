import type { ActionSchema } from "moleculer";
import { implement } from "@collab/core";
import { ErrorTracking } from "@collab/error-tracking-contract";
import type { ServiceKit } from "@collab/db";
import { operationsProject } from "../domain/access";
import { presentSetting } from "./setting.entity";
import { configuredSetting, findSetting, saveSetting } from "./settings.service";

export const settingsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "settings.get": implement(
    ErrorTracking.settings.get,
    async (ctx) => {
      const { project } = await operationsProject(ctx, ctx.params.id);
      return presentSetting(await configuredSetting(kit.db, project.id));
    },
    { visibility: "published" },
  ),
  "settings.patch": implement(
    ErrorTracking.settings.patch,
    async (ctx) => {
      const { project } = await operationsProject(ctx, ctx.params.id);
      const existing = await configuredSetting(kit.db, project.id);
      return presentSetting(await saveSetting(kit.db, project.id, existing, { enabled: ctx.params.active, integrated: ctx.params.integrated }));
    },
    { visibility: "published" },
  ),
  "settings.put": implement(
    ErrorTracking.settings.put,
    async (ctx) => {
      const { project } = await operationsProject(ctx, ctx.params.id);
      const existing = await findSetting(kit.db, project.id);
      return presentSetting(await saveSetting(kit.db, project.id, existing, { enabled: ctx.params.active, integrated: ctx.params.integrated }));
    },
    { visibility: "published" },
  ),
});
