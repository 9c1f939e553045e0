import { createLogger, loadConfig, scrubText, secretsKeyring, type Config, type Keyring } from "@collab/core";
import { openDatabase, type Db, type SecretStore } from "@collab/db";
import { SECRET_STORES } from "./services";

/**
 * One-shot re-encryption (`node apps/standalone/dist/reencrypt-secrets.js`, or
 * `npm run secrets:reencrypt`): seals every stored credential that is still in clear (written by
 * a version before SECRETS_KEY) or sealed with a key of SECRETS_KEY_PREVIOUS with SECRETS_KEY,
 * against DATABASE_URL (migrated), then exits 0, or 1 on failure. Safe to run at any time and
 * again: rows are resealed under their row locks, values already under SECRETS_KEY are left.
 * `npm start` runs the same pass at every start (all of its services are in its process).
 */
export async function reencryptAll(db: Db, keyring: Keyring, stores: readonly SecretStore[] = SECRET_STORES, logger?: ReturnType<typeof createLogger>): Promise<Record<string, number>> {
  const resealed: Record<string, number> = {};
  for (const store of stores) {
    resealed[store.service] = await store.reseal(db, keyring);
    if (resealed[store.service]) logger?.info({ service: store.service, resealed: resealed[store.service], key_id: keyring.currentKeyId }, "credentials resealed with the current key");
  }
  return resealed;
}

async function main(config: Config = loadConfig()) {
  const logger = createLogger(config, "reencrypt-secrets");
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required: the re-encryption reseals the credentials stored in a PostgreSQL database");
  const keyring = secretsKeyring(config, "the re-encryption");
  const database = await openDatabase(config.DATABASE_URL);
  try {
    const resealed = await reencryptAll(database.db, keyring, SECRET_STORES, logger);
    logger.info({ resealed, key_id: keyring.currentKeyId }, "every stored credential is sealed with SECRETS_KEY");
  } finally {
    await database.release();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      // Not through createLogger: the configuration itself may be what failed.
      console.error(JSON.stringify({ level: "error", time: Date.now(), msg: "re-encryption failed", err: scrubText(err instanceof Error ? err.message : String(err)) }));
      process.exit(1);
    },
  );
}
