import type { ActionSchema } from "moleculer";
import { action, actionsOf, applySettings, broadcast, implement, requireAdmin } from "@collab/core";
import { Admin } from "@collab/admin-contract";
import type { ServiceKit } from "@collab/db";
import { UpdateSettingsParams } from "./api/settings.params";
import { requireArea } from "./availability";
import { loadSettings, presentSettings, settingsMessage, updateSettings } from "./domain/settings";

export const settingsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** GET /application/settings: administrators only. */
  "settings.get": action({
    idempotent: true,
    async handler(ctx) {
      requireAdmin(ctx);
      requireArea("settings", kit.config);
      return presentSettings(await loadSettings(kit.db), kit.config.LICENSE_TIER, kit.keyring);
    },
  }),

  /** PUT /application/settings: stores, then broadcasts the whole snapshot to every process. */
  "settings.update": action({
    input: () => UpdateSettingsParams,
    async handler(ctx) {
      requireAdmin(ctx);
      requireArea("settings", kit.config);
      const stored = await updateSettings(kit.db, kit.keyring, ctx.params, kit.config.LICENSE_TIER, new URL(kit.baseUrl).hostname);
      const message = settingsMessage(stored);
      applySettings(message);
      await broadcast(ctx, Admin.events.settingsChanged, message);
      return presentSettings(stored, kit.config.LICENSE_TIER, kit.keyring);
    },
  }),

  ...actionsOf("admin", [
    /** The snapshot every process loads at start (shared/core/src/settings.ts). */
    implement(Admin.settings.current, async () => settingsMessage(await loadSettings(kit.db))),
  ]),
});
