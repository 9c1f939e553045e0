import type { BroadcastMessage } from "@collab/admin-contract";
import type { BroadcastMessageRow } from "../db/schema";

/** The colour column GitLab still renders after the color param's removal (its default). */
const LEGACY_COLOR = "#E75E40";

/** Entities::System::BroadcastMessage; `active` is computed from the window at read time. */
export const presentBroadcast = (m: BroadcastMessageRow, now = new Date()): BroadcastMessage => ({
  id: m.id,
  message: m.message,
  starts_at: m.startsAt.toISOString(),
  ends_at: m.endsAt.toISOString(),
  color: LEGACY_COLOR,
  font: m.font,
  active: m.startsAt.getTime() <= now.getTime() && now.getTime() < m.endsAt.getTime(),
  target_access_levels: m.targetAccessLevels,
  target_path: m.targetPath,
  broadcast_type: m.broadcastType,
  dismissable: m.dismissable,
  theme: m.theme,
});
