import type { ApplicationSettings } from "@collab/admin-contract";
import { validationFailed, type Keyring, type SettingsMessage } from "@collab/core";
import type { Db } from "@collab/db";
import { eq, sql } from "drizzle-orm";
import { ALIASES, BRANCH_PROTECTION, defaultValues, FIELD_BY_NAME, licensed, RENDERED_ALIASES, SETTING_FIELDS, type Tier } from "../api/settings.fields";
import { applicationSettings } from "../db/schema";
import { openSecretSettings, sealClearSecretSettings, sealSecretSettings, withoutSecretSettings } from "./secrets";

const ROW_ID = 1;

export interface StoredSettings {
  values: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** 0 while nothing was ever saved (pure defaults). */
  version: number;
}

/** The settings row over GitLab's defaults (fields added later get their default). */
export async function loadSettings(db: Db): Promise<StoredSettings> {
  const [row] = await db.select().from(applicationSettings).where(eq(applicationSettings.id, ROW_ID));
  const now = new Date();
  if (!row) return { values: defaultValues(), createdAt: now, updatedAt: now, version: 0 };
  return { values: { ...defaultValues(), ...row.values }, createdAt: row.createdAt, updatedAt: row.updatedAt, version: row.updatedAt.getTime() };
}

/** The snapshot every process acts on: no credentials in it. */
export const settingsMessage = (s: StoredSettings): SettingsMessage => ({ version: s.version, settings: withoutSecretSettings(s.values) as SettingsMessage["settings"] });

const VISIBILITY_BY_LEVEL: Record<string, string> = { "0": "private", "10": "internal", "20": "public", private: "private", internal: "internal", public: "public" };

/** The level a default_branch_protection_defaults object amounts to (for the deprecated integer). */
function protectionLevelOf(d: Record<string, unknown>): number {
  const first = (k: string) => Number((d[k] as { access_level: number }[] | undefined)?.[0]?.access_level ?? 40);
  const push = first("allowed_to_push");
  const merge = first("allowed_to_merge");
  if (push <= 30 && merge <= 30 && d.allow_force_push === true) return 0;
  if (push <= 30) return 1;
  if (merge <= 30) return 3;
  return d.developer_can_initial_push === true ? 4 : 2;
}

/**
 * Applies a PUT: renames legacy params to their fields, drops unlicensed ones, keeps the deprecated
 * and current forms in step, validates like the model and stores the row. Returns the new settings.
 */
export async function updateSettings(db: Db, keyring: Keyring, params: Record<string, unknown>, tier: Tier, host: string): Promise<StoredSettings> {
  const attrs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    const name = ALIASES[k] ?? k;
    const field = FIELD_BY_NAME.get(name);
    if (!field || !licensed(field, tier)) continue;
    attrs[name] = v;
  }
  if (attrs.default_branch_protection !== undefined && attrs.default_branch_protection_defaults === undefined)
    attrs.default_branch_protection_defaults = structuredClone(BRANCH_PROTECTION[attrs.default_branch_protection as number]);
  else if (attrs.default_branch_protection_defaults !== undefined && attrs.default_branch_protection === undefined)
    attrs.default_branch_protection = protectionLevelOf(attrs.default_branch_protection_defaults as Record<string, unknown>);

  const errors: Record<string, string[]> = {};
  if (attrs.restricted_visibility_levels !== undefined) {
    const levels = attrs.restricted_visibility_levels as string[];
    const bad = levels.filter((l) => !VISIBILITY_BY_LEVEL[l]);
    if (bad.length) errors.restricted_visibility_levels = bad.map((l) => `'${l}' is not a valid visibility level`);
    else attrs.restricted_visibility_levels = [...new Set(levels.map((l) => VISIBILITY_BY_LEVEL[l]))];
  }
  // GitLab always allowlists its own host in the asset proxy allowlist.
  if (Array.isArray(attrs.asset_proxy_allowlist) && host && !(attrs.asset_proxy_allowlist as string[]).includes(host))
    attrs.asset_proxy_allowlist = [host, ...(attrs.asset_proxy_allowlist as string[])];

  return db.transaction(async (tx) => {
    await tx.insert(applicationSettings).values({ id: ROW_ID, values: {} }).onConflictDoNothing();
    const [row] = await tx.select().from(applicationSettings).where(eq(applicationSettings.id, ROW_ID)).for("update");
    const merged = { ...defaultValues(), ...row.values, ...attrs };
    for (const field of SETTING_FIELDS) {
      if (!field.check || (attrs[field.name] === undefined && !dependsOnChanged(field.name, attrs))) continue;
      const messages = field.check(merged[field.name], merged);
      if (messages.length) errors[field.name] = [...(errors[field.name] ?? []), ...messages];
    }
    if (Object.keys(errors).length) throw validationFailed(errors);
    // Secrets sealed: the given ones, and any an earlier version left in clear.
    const stored = { ...sealClearSecretSettings(row.values, keyring), ...sealSecretSettings(attrs, keyring) };
    // Strictly increasing versions, even for two PUTs within one millisecond.
    const [updated] = await tx
      .update(applicationSettings)
      .set({ values: stored, updatedAt: sql`GREATEST(now(), ${applicationSettings.updatedAt} + interval '1 millisecond')` })
      .where(eq(applicationSettings.id, ROW_ID))
      .returning();
    return { values: { ...defaultValues(), ...updated.values }, createdAt: updated.createdAt, updatedAt: updated.updatedAt, version: updated.updatedAt.getTime() };
  });
}

/** Conditional validations re-run when their flag changes (asset_proxy_url when asset_proxy_enabled…). */
const DEPENDENTS: Record<string, string[]> = {
  terms: ["enforce_terms"],
  asset_proxy_url: ["asset_proxy_enabled"],
  external_authorization_service_url: ["external_authorization_service_enabled"],
  external_authorization_service_default_label: ["external_authorization_service_enabled"],
};
const dependsOnChanged = (name: string, attrs: Record<string, unknown>) => (DEPENDENTS[name] ?? []).some((flag) => attrs[flag] !== undefined);

/**
 * Entities::ApplicationSetting: licensed fields, the legacy aliases, id and timestamps. Built by
 * name from the field list, so typed by the contract's schema (ApplicationSettingsSchema).
 */
export function presentSettings(s: StoredSettings, tier: Tier, keyring: Keyring): ApplicationSettings {
  const out: Record<string, unknown> = { id: ROW_ID };
  const values = openSecretSettings(s.values, keyring);
  for (const f of SETTING_FIELDS) if (licensed(f, tier)) out[f.name] = values[f.name];
  for (const alias of RENDERED_ALIASES) out[alias] = values[ALIASES[alias]];
  out.created_at = s.createdAt.toISOString();
  out.updated_at = s.updatedAt.toISOString();
  return out as ApplicationSettings;
}
