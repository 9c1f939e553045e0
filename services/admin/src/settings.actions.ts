import type { ActionSchema } from "moleculer";
import { actionsOf, applySettings, broadcast, implement, requireAdmin } from "@collab/core";
import { Admin } from "@collab/admin-contract";
import type { ServiceKit } from "@collab/db";
import { requireArea } from "./availability";
import { loadSettings, presentSettings, settingsMessage, updateSettings } from "./domain/settings";

export const settingsActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("admin", [
    /** GET /application/settings: administrators only. */
    implement(
      Admin.settings.get,
      async (ctx) => {
        requireAdmin(ctx);
        requireArea("settings", kit.config);
        return presentSettings(await loadSettings(kit.db), kit.config.LICENSE_TIER, kit.keyring);
      },
      { visibility: "published" },
    ),

    /** PUT /application/settings: stores, then broadcasts the whole snapshot to every process. */
    implement(
      Admin.settings.update,
      async (ctx) => {
        requireAdmin(ctx);
        requireArea("settings", kit.config);
        const stored = await updateSettings(kit.db, kit.keyring, ctx.params, kit.config.LICENSE_TIER, new URL(kit.baseUrl).hostname);
        const message = settingsMessage(stored);
        applySettings(message);
        await broadcast(ctx, Admin.events.settingsChanged, message);
        return presentSettings(stored, kit.config.LICENSE_TIER, kit.keyring);
      },
      { visibility: "published" },
    ),

    /** The snapshot every process loads at start (shared/core/src/settings.ts). */
    implement(Admin.settings.current, async () => settingsMessage(await loadSettings(kit.db))),
  ]);
