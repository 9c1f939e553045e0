import type { ErrorTrackingSettingEntity } from "@collab/error-tracking-contract";
import type { SettingRow } from "../db/schema";

export type SettingEntity = ErrorTrackingSettingEntity;

/**
 * The external tracker's page of the project, derived from its API URL as GitLab does
 * (`https://host/api/0/projects/org/proj/` → `https://host/org/proj`); null without one.
 */
export function trackerExternalUrl(apiUrl: string | null): string | null {
  if (!apiUrl) return null;
  return apiUrl.replace(/\/api\/0\/projects\//, "/").replace(/\/+$/, "");
}

export const presentSetting = (row: SettingRow): SettingEntity => ({
  active: row.enabled,
  project_name: row.projectName,
  tracker_external_url: trackerExternalUrl(row.apiUrl),
  api_url: row.apiUrl,
  integrated: row.integrated,
});
