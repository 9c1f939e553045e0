import type { Keyring } from "@collab/core";
import type { Db, SecretStore } from "@collab/db";
import { asc, eq, gt } from "drizzle-orm";
import { pipelineScheduleVariables, type ScheduleVariableRow } from "../db/schema";

/**
 * Pipeline schedule variables are CI/CD variables, credentials as often as not: their values are
 * stored sealed (shared/core/src/secrets.ts) and opened when presented to those who may read them.
 */
export const openVariable = (row: ScheduleVariableRow, keyring: Keyring): ScheduleVariableRow => ({ ...row, value: keyring.open(row.value) });

const BATCH = 500;

/** Reseals, batch by batch under row locks, the values in clear (earlier versions) or under an older key. */
async function reseal(db: Db, keyring: Keyring): Promise<number> {
  const t = pipelineScheduleVariables;
  let changed = 0;
  for (let after = 0; ; ) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx.select({ id: t.id, value: t.value }).from(t).where(gt(t.id, after)).orderBy(asc(t.id)).limit(BATCH).for("update");
      for (const row of rows) {
        if (!keyring.needsResealing(row.value)) continue;
        await tx.update(t).set({ value: keyring.reseal(row.value) }).where(eq(t.id, row.id));
        changed++;
      }
      return rows;
    });
    if (batch.length < BATCH) return changed;
    after = batch[batch.length - 1].id;
  }
}

export const runnersSecrets: SecretStore = { service: "runners", reseal };
