import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { decodeSecretsKey, SECRETS_KEY_FORMAT, splitList, type Config } from "./config";

/**
 * Credentials the services must read back (integration API keys and webhooks, the external
 * pipeline validation token, pipeline schedule variables) are stored sealed: AES-256-GCM under a
 * key from the environment, in a versioned envelope
 *
 *   enc:v1:<key id>:<base64 of nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)>
 *
 * The key id (the first 8 hex digits of the key's SHA-256) says which key of the ring opens it; the
 * envelope's header is authenticated with the ciphertext, so neither can be altered unnoticed.
 * Values without the prefix were written in clear by earlier versions: they read as they are until
 * a write or the re-encryption pass (apps/standalone/src/reencrypt-secrets.ts) seals them.
 */
const VERSION = "v1";
const PREFIX = `enc:${VERSION}:`;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A fresh key, as SECRETS_KEY takes it. */
export const generateSecretsKey = (): string => randomBytes(KEY_BYTES).toString("base64");

/** True for a value in the envelope (of any version): not plaintext. */
export const isSealed = (value: unknown): value is string => typeof value === "string" && value.startsWith("enc:");

interface RingKey {
  id: string;
  key: Buffer;
}

const keyIdOf = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

/** Seals with the current key; opens with any key of the ring (the current one and SECRETS_KEY_PREVIOUS). */
export class Keyring {
  private readonly current: RingKey;
  private readonly byId: Map<string, RingKey>;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const k of [current, ...previous]) if (k.length !== KEY_BYTES) throw new Error(`a secrets key is ${KEY_BYTES} bytes, not ${k.length}`);
    this.current = { id: keyIdOf(current), key: current };
    this.byId = new Map([...previous, current].map((key) => [keyIdOf(key), { id: keyIdOf(key), key }]));
  }

  /** The id of the key new values are sealed with. */
  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const header = `${PREFIX}${this.current.id}`;
    const cipher = createCipheriv("aes-256-gcm", this.current.key, nonce);
    cipher.setAAD(Buffer.from(header));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `${header}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64")}`;
  }

  /** The plaintext of a stored value; a value written in clear by an earlier version is returned as it is. */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const { header, keyId, payload } = parseEnvelope(stored);
    const ring = this.byId.get(keyId);
    if (!ring) throw new SecretsError(`a secret is sealed with key ${keyId}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`);
    if (payload.length < NONCE_BYTES + TAG_BYTES) throw new SecretsError("a sealed secret is truncated");
    const decipher = createDecipheriv("aes-256-gcm", ring.key, payload.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(header));
    decipher.setAuthTag(payload.subarray(payload.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(payload.subarray(NONCE_BYTES, payload.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretsError(`a sealed secret failed authentication (altered, or sealed by another key with id ${keyId})`);
    }
  }

  /** True unless the value is sealed with the current key: in clear, or under an older key. */
  needsResealing(stored: string): boolean {
    return !stored.startsWith(`${PREFIX}${this.current.id}:`);
  }

  /** The value sealed with the current key (the same string when it already is). */
  reseal(stored: string): string {
    return this.needsResealing(stored) ? this.seal(this.open(stored)) : stored;
  }
}

/** A sealed value that cannot be opened: its message never holds the value. */
export class SecretsError extends Error {
  override name = "SecretsError";
}

function parseEnvelope(stored: string): { header: string; keyId: string; payload: Buffer } {
  const parts = stored.split(":");
  if (parts.length !== 4 || parts[1] !== VERSION) throw new SecretsError(`a sealed secret has an unknown envelope (${parts.slice(0, 2).join(":")})`);
  return { header: parts.slice(0, 3).join(":"), keyId: parts[2], payload: Buffer.from(parts[3], "base64") };
}

/**
 * The process's keyring. Throws, naming `holder`, when SECRETS_KEY is missing: a process that
 * stores secrets refuses to start without it (npm start keeps a generated one beside its embedded
 * database, see readOrCreateSecretsKey()).
 */
export function secretsKeyring(config: Pick<Config, "SECRETS_KEY" | "SECRETS_KEY_PREVIOUS">, holder: string): Keyring {
  const current = config.SECRETS_KEY ? decodeSecretsKey(config.SECRETS_KEY) : null;
  if (!current) throw new Error(`SECRETS_KEY is required by ${holder}, which encrypts stored credentials with it; it ${SECRETS_KEY_FORMAT}`);
  const previous = splitList(config.SECRETS_KEY_PREVIOUS).map((text) => {
    const key = decodeSecretsKey(text);
    if (!key) throw new Error(`SECRETS_KEY_PREVIOUS: each key ${SECRETS_KEY_FORMAT}`);
    return key;
  });
  return new Keyring(current, previous);
}

/**
 * The key kept in `file` (created with a fresh key, mode 600, when missing): npm start's key when
 * SECRETS_KEY is unset, next to its embedded PostgreSQL's generated password.
 */
export function readOrCreateSecretsKey(file: string): string {
  try {
    // "wx": an existing key is never overwritten.
    fs.writeFileSync(file, `${generateSecretsKey()}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const text = fs.readFileSync(file, "utf8").trim();
  if (!decodeSecretsKey(text)) throw new Error(`${file} does not hold a secrets key: it ${SECRETS_KEY_FORMAT}. Restore it from a backup: without it the stored credentials cannot be read`);
  return text;
}
