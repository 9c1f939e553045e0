import { applySettings, settingsEvents } from "@collab/core";
import { defineService } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { broadcastActions } from "./broadcast.actions";
import { deadLettersActions } from "./dead-letters.actions";
import { adminSecrets } from "./domain/secrets";
import { loadSettings, settingsMessage } from "./domain/settings";
import { tick } from "./domain/storage-moves";
import { experimentsActions } from "./experiments.actions";
import { pruneCounters, rateLimitsActions } from "./rate-limits.actions";
import { serviceAccountsActions } from "./service-accounts.actions";
import { settingsActions } from "./settings.actions";
import { storageMovesActions } from "./storage-moves.actions";

/** How often the storage-move worker advances moves (ms); STORAGE_MOVE_TICK_MS=0 turns the timer off. */
const tickInterval = () => Number(process.env.STORAGE_MOVE_TICK_MS ?? 2000);

/**
 * Instance administration: application settings (and the snapshot every process acts on),
 * broadcast messages, service accounts, experiments, repository storage moves, the shared
 * counters of application rate limits and the dead letters of domain events.
 */
export const adminService: ServiceSchema = defineService({
  name: "admin",
  migrations: path.join(__dirname, "../drizzle"),
  // The owner of the settings: its snapshot comes from its own table, at start and on every change.
  mixins: [{ name: "settings-owner", events: settingsEvents }],
  secrets: adminSecrets,
  async started(kit) {
    applySettings(settingsMessage(await loadSettings(kit.db)), true);
  },
  actions: (kit) => [
    settingsActions(kit),
    broadcastActions(kit),
    serviceAccountsActions(kit),
    experimentsActions(kit),
    storageMovesActions(kit),
    rateLimitsActions(kit),
    deadLettersActions(kit),
  ],
  workers: (kit) => [
    {
      name: "storage move worker step",
      everyMs: tickInterval(),
      run: () => tick(kit.db, (name, params) => kit.broker.call(name, params), kit.broker).then(() => pruneCounters(kit)),
    },
  ],
});
