import { EMAIL_EVENTS, type EmailEvent, type NotificationLevel } from "@collab/accounts-contract";
import type { Config } from "@collab/core";
import type { NotificationSettingRow } from "../db/schema";

/**
 * GitLab's NotificationSetting levels, and the email events a `custom` level switches one by one:
 * the contract's, as `notifications.effectiveLevel` answers them.
 */
export { EMAIL_EVENTS, NOTIFICATION_LEVELS, type EmailEvent, type NotificationLevel } from "@collab/accounts-contract";

/** Where a setting applies: the user's global one, or one group or project. */
export type SourceType = "global" | "group" | "project";
/** One setting's place: the global one has no source id. */
export type SettingSource = { type: "global" } | { type: "group" | "project"; id: number };

/** NotificationSetting.email_events(source): the events a source type has on a tier. */
export function emailEventsFor(source: SourceType, tier: Config["LICENSE_TIER"]): EmailEvent[] {
  const epics = tier === "ultimate" && source !== "project";
  return EMAIL_EVENTS.filter((e) => e !== "new_epic" || epics);
}

/** The row's column of an event: new_note → newNote. */
export const eventColumn = (event: EmailEvent) => event.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof NotificationSettingRow & string;

/** The level a source has before the user sets anything: participating globally, else defer to global. */
export const defaultLevel = (source: SourceType): NotificationLevel => (source === "global" ? "participating" : "global");

/** What a setting holds, stored or not: its level and every event's switch. */
export interface Setting {
  level: NotificationLevel;
  events: Record<EmailEvent, boolean>;
}

/** The defaults of the table's event columns (failed_pipeline, fixed_pipeline and moved_project on). */
const EVENT_DEFAULTS: Record<EmailEvent, boolean> = Object.fromEntries(
  EMAIL_EVENTS.map((e) => [e, e === "failed_pipeline" || e === "fixed_pipeline" || e === "moved_project"]),
) as Record<EmailEvent, boolean>;

/** A stored row as a Setting, or the source's defaults when the user never set it. */
export function settingOf(row: NotificationSettingRow | undefined, source: SourceType): Setting {
  if (!row) return { level: defaultLevel(source), events: { ...EVENT_DEFAULTS } };
  const events = Object.fromEntries(EMAIL_EVENTS.map((e) => [e, Boolean(row[eventColumn(e)])])) as Record<EmailEvent, boolean>;
  return { level: row.level as NotificationLevel, events };
}

/** Which setting decided an effective level. */
export interface EffectiveSetting extends Setting {
  source: SourceType;
  /** The group or project id; null for the global setting. */
  sourceId: number | null;
}

/**
 * The level that applies to a user on a project or group (GitLab's NotificationRecipient#
 * find_notification_setting): the project's own setting unless it is `global`, then the closest
 * group's (the project's group, its parent, … up to the top-level group) unless `global`, then the
 * user's global setting. A global setting that itself says `global` means its default,
 * `participating`. `groups` is closest first; a missing row is the source's default (`global`).
 */
export function resolveEffective(chain: { project?: { id: number; row?: NotificationSettingRow }; groups: { id: number; row?: NotificationSettingRow }[]; global?: NotificationSettingRow }): EffectiveSetting {
  const steps: { source: SourceType; id: number; row?: NotificationSettingRow }[] = [
    ...(chain.project ? [{ source: "project" as const, ...chain.project }] : []),
    ...chain.groups.map((g) => ({ source: "group" as const, ...g })),
  ];
  for (const step of steps) {
    const setting = settingOf(step.row, step.source);
    if (setting.level !== "global") return { ...setting, source: step.source, sourceId: step.id };
  }
  const global = settingOf(chain.global, "global");
  return { ...global, level: global.level === "global" ? defaultLevel("global") : global.level, source: "global", sourceId: null };
}
