import type { GlobalNotificationSetting, NotificationSetting } from "@collab/accounts-contract";
import type { Config } from "@collab/core";
import { emailEventsFor, type EmailEvent, type Setting, type SourceType } from "../domain/notification-levels";

/**
 * Entities::NotificationSetting: `level`, and `events` (every event of the source, on or off)
 * only when the level is `custom`.
 */
export function presentNotificationSetting(setting: Setting, source: SourceType, tier: Config["LICENSE_TIER"]): NotificationSetting {
  if (setting.level !== "custom") return { level: setting.level };
  const events = Object.fromEntries(emailEventsFor(source, tier).map((e) => [e, setting.events[e]])) as Partial<Record<EmailEvent, boolean>>;
  return { level: setting.level, events };
}

/** Entities::GlobalNotificationSetting: the above plus the address notifications go to. */
export const presentGlobalNotificationSetting = (setting: Setting, notificationEmail: string, tier: Config["LICENSE_TIER"]): GlobalNotificationSetting => ({
  ...presentNotificationSetting(setting, "global", tier),
  notification_email: notificationEmail,
});
