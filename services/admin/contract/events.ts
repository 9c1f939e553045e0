import { SettingsChanged } from "@collab/core";

/**
 * Durable events the admin service publishes (see index.ts), and its broadcasts. The settings
 * broadcast is declared in @collab/core, beside the handler every process has; it is admin's.
 */
export const AdminEvents = {
  /** Broadcast (not durable): the whole new settings snapshot, after every PUT /application/settings. */
  settingsChanged: SettingsChanged,
};
