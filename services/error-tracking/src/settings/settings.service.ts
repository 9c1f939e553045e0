import { notFound, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { eq, sql } from "drizzle-orm";
import { settings, type SettingRow } from "../db/schema";

export const findSetting = async (db: Db, projectId: number): Promise<SettingRow | undefined> =>
  (await db.select().from(settings).where(eq(settings.projectId, projectId)))[0];

/**
 * Writes the setting (created when absent). An enabled external tracker needs its API URL, which
 * this API cannot set: GitLab's model validation answers that, and so do we.
 */
export async function saveSetting(db: Db, projectId: number, existing: SettingRow | undefined, change: { enabled: boolean; integrated?: boolean }): Promise<SettingRow> {
  const integrated = change.integrated ?? existing?.integrated ?? true;
  if (change.enabled && !integrated && !existing?.apiUrl) throw validationFailed({ api_url: ["is a required field"] });
  const [row] = await db
    .insert(settings)
    .values({ projectId, enabled: change.enabled, integrated })
    .onConflictDoUpdate({ target: settings.projectId, set: { enabled: change.enabled, integrated, updatedAt: sql`now()` } })
    .returning();
  return row;
}

/** PATCH changes only a configured setting: 404 Error Tracking Setting Not Found otherwise. */
export async function configuredSetting(db: Db, projectId: number): Promise<SettingRow> {
  const row = await findSetting(db, projectId);
  if (!row) throw notFound("Error Tracking Setting");
  return row;
}
