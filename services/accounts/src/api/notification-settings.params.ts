import type { Config } from "@collab/core";
import { emailEventsFor, type EmailEvent, type NotificationLevel, type SourceType } from "../domain/notification-levels";

/** The changes a PUT asks for: the level and the events this source has on this tier. */
export interface SettingChanges {
  level?: NotificationLevel;
  events: Partial<Record<EmailEvent, boolean>>;
}

/**
 * The params (@collab/accounts-contract's UpdateGlobalSettingParams, UpdateSourceSettingParams)
 * as the licensed tier declares them: an event the source does not have there (`new_epic` below
 * Ultimate, or on a project) is dropped like any undeclared Grape param.
 */
export function changesFor(p: { level?: SettingChanges["level"] } & Partial<Record<EmailEvent, boolean | undefined>>, source: SourceType, tier: Config["LICENSE_TIER"]): SettingChanges {
  const events: Partial<Record<EmailEvent, boolean>> = {};
  for (const e of emailEventsFor(source, tier)) if (p[e] !== undefined) events[e] = p[e];
  return { level: p.level, events };
}
