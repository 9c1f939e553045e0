import type { Keyring } from "@collab/core";
import type { Db } from "./database";

/**
 * The credentials a service keeps sealed in its tables (shared/core/src/secrets.ts), for
 * defineService({ secrets }) and the one-shot re-encryption (apps/standalone/src/reencrypt-secrets.ts).
 */
export interface SecretStore {
  /** The service whose tables hold them. */
  service: string;
  /** Seals every stored credential still in clear or under an older key with the current key; answers how many values changed. */
  reseal(db: Db, keyring: Keyring): Promise<number>;
}
