import type { Keyring } from "@collab/core";
import type { Db, SecretStore } from "@collab/db";
import { asc, eq, gt } from "drizzle-orm";
import { KINDS, type KindDef } from "@collab/integrations-contract";
import { integrations, webHooks, type IntegrationRow } from "../db/schema";

/**
 * The catalogue's secret fields (API keys, tokens, passwords, the chat webhook) are stored sealed
 * in `properties` (shared/core/src/secrets.ts), opened only where they are used: by the set-up
 * that validates them, by the delivery worker that posts to the webhook. Never presented. The
 * webhooks' write-only values (token, custom header and URL variable values) are sealed the same way.
 */
const secretNames = (kind: KindDef) => kind.fields.filter((f) => f.secret).map((f) => f.name);

type Properties = Record<string, unknown>;

const mapSecrets = (kind: KindDef, properties: Properties, change: (value: string) => string): Properties => {
  const out = { ...properties };
  for (const name of secretNames(kind)) {
    const value = out[name];
    if (typeof value === "string" && value !== "") out[name] = change(value);
  }
  return out;
};

/** The properties with their secrets in clear (values written in clear by earlier versions pass as they are). */
export const openSecrets = (kind: KindDef, properties: Properties, keyring: Keyring): Properties => mapSecrets(kind, properties, (v) => keyring.open(v));

/** The properties, in clear, with every secret sealed with the current key: what is stored. */
export const sealSecrets = (kind: KindDef, properties: Properties, keyring: Keyring): Properties => mapSecrets(kind, properties, (v) => keyring.seal(v));

/** One secret of a stored integration, in clear (empty when unset). */
export function secretOf(row: IntegrationRow, name: string, keyring: Keyring): string {
  const value = row.properties[name];
  return typeof value === "string" ? keyring.open(value) : "";
}

const BATCH = 200;

/** Reseals, batch by batch under row locks, every integration's secrets that are in clear or under an older key. */
async function reseal(db: Db, keyring: Keyring): Promise<number> {
  let changed = 0;
  for (let after = 0; ; ) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx.select().from(integrations).where(gt(integrations.id, after)).orderBy(asc(integrations.id)).limit(BATCH).for("update");
      for (const row of rows) {
        const kind = KINDS.find((k) => k.slug === row.slug);
        const stale = kind ? secretNames(kind).filter((n) => typeof row.properties[n] === "string" && row.properties[n] !== "" && keyring.needsResealing(row.properties[n] as string)) : [];
        if (!stale.length) continue;
        const properties = { ...row.properties };
        for (const name of stale) properties[name] = keyring.reseal(properties[name] as string);
        await tx.update(integrations).set({ properties }).where(eq(integrations.id, row.id));
        changed += stale.length;
      }
      return rows;
    });
    if (batch.length < BATCH) return changed;
    after = batch[batch.length - 1].id;
  }
}

/** Reseals the webhooks' write-only values (token, custom header and URL variable values) that are under an older key. */
async function resealHooks(db: Db, keyring: Keyring): Promise<number> {
  let changed = 0;
  const stale = (v: string | null | undefined): v is string => typeof v === "string" && v !== "" && keyring.needsResealing(v);
  const resealAll = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, stale(v) ? (changed++, keyring.reseal(v)) : v]));
  for (let after = 0; ; ) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx.select().from(webHooks).where(gt(webHooks.id, after)).orderBy(asc(webHooks.id)).limit(BATCH).for("update");
      for (const row of rows) {
        const before = changed;
        const token = stale(row.token) ? (changed++, keyring.reseal(row.token)) : row.token;
        const customHeaders = resealAll(row.customHeaders);
        const urlVariables = resealAll(row.urlVariables);
        if (changed !== before) await tx.update(webHooks).set({ token, customHeaders, urlVariables }).where(eq(webHooks.id, row.id));
      }
      return rows;
    });
    if (batch.length < BATCH) return changed;
    after = batch[batch.length - 1].id;
  }
}

export const integrationSecrets: SecretStore = { service: "integrations", reseal: async (db, keyring) => (await reseal(db, keyring)) + (await resealHooks(db, keyring)) };
