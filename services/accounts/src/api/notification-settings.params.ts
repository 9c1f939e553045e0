import { gBool, gEnum, gString, type Config } from "@collab/core";
import { z } from "zod";
import { EMAIL_EVENTS, emailEventsFor, NOTIFICATION_LEVELS, type EmailEvent, type SourceType } from "../domain/notification-levels";

/** `level` and one optional boolean per email event, as the Grape params of every PUT declare them. */
const settingParams = {
  level: gEnum(NOTIFICATION_LEVELS).optional(),
  ...(Object.fromEntries(EMAIL_EVENTS.map((e) => [e, gBool().optional()])) as Record<EmailEvent, z.ZodOptional<ReturnType<typeof gBool>>>),
};

/** PUT /notification_settings: also `notification_email` (blank resets it to the primary address). */
export const UpdateGlobalSettingParams = z.object({
  ...settingParams,
  // JSON null is Grape's nil: not given.
  notification_email: gString().nullable().optional(),
});
export type UpdateGlobalSettingParams = z.output<typeof UpdateGlobalSettingParams>;

/** The `source` a group or project route names (fixed by the route table). */
export const SOURCES = ["groups", "projects"] as const;
export type SourceKind = (typeof SOURCES)[number];

/** GET /groups/:id/notification_settings, GET /projects/:id/notification_settings. */
export const SourceSettingParams = z.object({ source: z.enum(SOURCES), id: gString() });

/** PUT /groups/:id/notification_settings, PUT /projects/:id/notification_settings. */
export const UpdateSourceSettingParams = SourceSettingParams.extend(settingParams);
export type UpdateSourceSettingParams = z.output<typeof UpdateSourceSettingParams>;

/** The changes a PUT asks for: the level and the events this source has on this tier. */
export interface SettingChanges {
  level?: (typeof NOTIFICATION_LEVELS)[number];
  events: Partial<Record<EmailEvent, boolean>>;
}

/**
 * The params as the licensed tier declares them: an event the source does not have there
 * (`new_epic` below Ultimate, or on a project) is dropped like any undeclared Grape param.
 */
export function changesFor(p: { level?: SettingChanges["level"] } & Partial<Record<EmailEvent, boolean | undefined>>, source: SourceType, tier: Config["LICENSE_TIER"]): SettingChanges {
  const events: Partial<Record<EmailEvent, boolean>> = {};
  for (const e of emailEventsFor(source, tier)) if (p[e] !== undefined) events[e] = p[e];
  return { level: p.level, events };
}
