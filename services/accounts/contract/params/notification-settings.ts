import { gBool, gEnum, gString } from "@collab/core";
import { z } from "zod";
import { EMAIL_EVENTS, NOTIFICATION_LEVELS, type EmailEvent } from "./constants";

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
export const NOTIFICATION_SOURCES = ["groups", "projects"] as const;
export type NotificationSourceKind = (typeof NOTIFICATION_SOURCES)[number];

/** GET /groups/:id/notification_settings, GET /projects/:id/notification_settings. */
export const SourceSettingParams = z.object({ source: z.enum(NOTIFICATION_SOURCES), id: gString() });

/** PUT /groups/:id/notification_settings, PUT /projects/:id/notification_settings. */
export const UpdateSourceSettingParams = SourceSettingParams.extend(settingParams);
export type UpdateSourceSettingParams = z.output<typeof UpdateSourceSettingParams>;
