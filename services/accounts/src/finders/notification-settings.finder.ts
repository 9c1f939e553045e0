import type { Db } from "@collab/db";
import { and, eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import { notificationSettings, type NotificationSettingRow } from "../db/schema";
import type { SettingSource, SourceType } from "../domain/notification-levels";

const bySource = (source: SettingSource): SQL =>
  source.type === "global"
    ? and(eq(notificationSettings.sourceType, "global"), isNull(notificationSettings.sourceId))!
    : and(eq(notificationSettings.sourceType, source.type), eq(notificationSettings.sourceId, source.id))!;

/** The user's stored setting for one source (GitLab's notification_settings_for), if any. */
export async function findSetting(db: Db, userId: number, source: SettingSource): Promise<NotificationSettingRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationSettings)
    .where(and(eq(notificationSettings.userId, userId), bySource(source)));
  return row;
}

/** Stored settings of these users along a project → groups → global chain, in one query. */
export async function findSettingsAlong(db: Db, userIds: number[], chain: { projectId?: number; groupIds: number[] }): Promise<NotificationSettingRow[]> {
  if (userIds.length === 0) return [];
  const sources: SQL[] = [bySource({ type: "global" })];
  if (chain.projectId !== undefined) sources.push(bySource({ type: "project", id: chain.projectId }));
  if (chain.groupIds.length) sources.push(and(eq(notificationSettings.sourceType, "group" satisfies SourceType), inArray(notificationSettings.sourceId, chain.groupIds))!);
  return db
    .select()
    .from(notificationSettings)
    .where(and(inArray(notificationSettings.userId, userIds), or(...sources)));
}
