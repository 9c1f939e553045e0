import { isSealed, type Keyring } from "@collab/core";
import type { Db, SecretStore } from "@collab/db";
import { eq } from "drizzle-orm";
import { SECRET_FIELDS } from "../api/settings.fields";
import { applicationSettings } from "../db/schema";

/**
 * The settings that are credentials (SECRET_FIELDS: external_pipeline_validation_service_token)
 * are stored sealed (shared/core/src/secrets.ts), opened for the administrators' GET and PUT
 * answers only, and left out of the snapshot every process receives (none acts on them).
 */
type Values = Record<string, unknown>;

const mapSecrets = (values: Values, change: (value: string) => string): Values => {
  const out = { ...values };
  for (const name of SECRET_FIELDS) {
    const value = out[name];
    if (typeof value === "string" && value !== "") out[name] = change(value);
  }
  return out;
};

/** Values given in clear (a PUT's), their secrets sealed with the current key. */
export const sealSecretSettings = (values: Values, keyring: Keyring): Values => mapSecrets(values, (v) => keyring.seal(v));

/** Stored values, with any secret an earlier version wrote in clear sealed. */
export const sealClearSecretSettings = (values: Values, keyring: Keyring): Values => mapSecrets(values, (v) => (isSealed(v) ? v : keyring.seal(v)));

/** Stored values, their secrets in clear. */
export const openSecretSettings = (values: Values, keyring: Keyring): Values => mapSecrets(values, (v) => keyring.open(v));

/** The values without their secrets: the snapshot other processes get. */
export const withoutSecretSettings = (values: Values): Values => Object.fromEntries(Object.entries(values).filter(([name]) => !SECRET_FIELDS.includes(name)));

/** Reseals the settings row's secrets that are in clear or under an older key (its version, updated_at, stays). */
async function reseal(db: Db, keyring: Keyring): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(applicationSettings).for("update");
    if (!row) return 0;
    const stale = SECRET_FIELDS.filter((n) => typeof row.values[n] === "string" && row.values[n] !== "" && keyring.needsResealing(row.values[n] as string));
    if (!stale.length) return 0;
    const values = { ...row.values };
    for (const name of stale) values[name] = keyring.reseal(values[name] as string);
    await tx.update(applicationSettings).set({ values }).where(eq(applicationSettings.id, row.id));
    return stale.length;
  });
}

export const adminSecrets: SecretStore = { service: "admin", reseal };
