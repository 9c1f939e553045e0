import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import type { Caller } from "./meta";

/**
 * Signed identities on the bus. Over NATS a request's `ctx.meta` could be written by anyone who
 * reaches the transporter, so nothing in it is believed unless signed:
 * - a **caller assertion**, signed by the gateway after it authenticated the request (Ed25519,
 *   CALLER_SIGNING_KEY, held by gateways only): who the user is, the token used, and an expiry 30 s
 *   past the request's deadline (the caller's next requests carry the same one). It travels in meta (`auth`) with every call made on
 *   the user's behalf, however deep;
 * - a **service identity**, signed by the process itself (SERVICE_SIGNING_KEY, held by every
 *   service process): background work, relays and lookups made for no user. It names a service,
 *   never a user.
 * Services hold the public halves (CALLER_KEYS, SERVICE_KEYS; the keys of a process's own signing
 * key are implied), so they verify without being able to mint a caller. Several public keys may
 * be listed: the one being retired and its successor, during a rotation.
 */

/** What the gateway vouches for. */
export interface CallerAssertion {
  caller: Caller | null;
  tokenId?: number;
  scimGroupId?: number | null;
  /** Expiry, ms since the epoch. */
  exp: number;
}

export interface ServiceAssertion {
  service: string;
  node: string;
  exp: number;
}

/** Seconds of clock difference between hosts tolerated on an expiry. */
const CLOCK_SKEW_MS = 30_000;

/** A key's id: the first 16 hex digits of its public key's SHA-256, carried with each signature. */
export const keyId = (publicKey: KeyObject): string => createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex").slice(0, 16);

function readKey(text: string, kind: "private" | "public"): KeyObject {
  const trimmed = text.trim();
  const isPem = trimmed.startsWith("-----BEGIN");
  const key = kind === "private"
    ? createPrivateKey(isPem ? trimmed : { key: Buffer.from(trimmed, "base64"), format: "der", type: "pkcs8" })
    : createPublicKey(isPem ? trimmed : { key: Buffer.from(trimmed, "base64"), format: "der", type: "spki" });
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`an Ed25519 ${kind} key is expected, got ${key.asymmetricKeyType}`);
  return key;
}

/** An Ed25519 private key (base64 PKCS#8 DER or PEM), for the configuration's checks too. */
export const readPrivateKey = (text: string): KeyObject => readKey(text, "private");
/** An Ed25519 public key (base64 SPKI DER or PEM). */
export const readPublicKey = (text: string): KeyObject => readKey(text, "public");

const b64 = (data: Buffer | string) => Buffer.from(data).toString("base64url");

/** Signs payloads as `<key id>.<base64url JSON>.<base64url signature>`. */
export class Signer {
  private readonly kid: string;
  constructor(private readonly key: KeyObject) {
    this.kid = keyId(createPublicKey(key));
  }
  get publicKey(): KeyObject {
    return createPublicKey(this.key);
  }
  sign(payload: object): string {
    const body = b64(JSON.stringify(payload));
    const signed = `${this.kid}.${body}`;
    return `${signed}.${b64(sign(null, Buffer.from(signed), this.key))}`;
  }
}

/**
 * Checks signatures made by any of its keys, and keeps what it verified until it expires: a
 * request's assertion is verified once per process, however many calls carry it.
 */
export class Verifier<T extends { exp: number }> {
  private readonly keys = new Map<string, KeyObject>();
  private readonly verified = new Map<string, T>();
  constructor(publicKeys: readonly KeyObject[]) {
    for (const key of publicKeys) this.keys.set(keyId(key), key);
  }
  get size(): number {
    return this.keys.size;
  }
  /** The payload, or null when the signature, the key or the expiry is not right. */
  verify(token: unknown, now = Date.now()): T | null {
    if (typeof token !== "string") return null;
    const cached = this.verified.get(token);
    if (cached) return cached.exp + CLOCK_SKEW_MS >= now ? cached : null;
    const [kid, body, signature, extra] = token.split(".");
    const key = this.keys.get(kid);
    if (!key || !body || !signature || extra !== undefined) return null;
    let payload: T;
    try {
      if (!verify(null, Buffer.from(`${kid}.${body}`), key, Buffer.from(signature, "base64url"))) return null;
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
    } catch {
      return null;
    }
    if (typeof payload?.exp !== "number" || payload.exp + CLOCK_SKEW_MS < now) return null;
    if (this.verified.size >= 10_000) this.forgetExpired(now);
    this.verified.set(token, payload);
    return payload;
  }
  private forgetExpired(now: number) {
    for (const [token, payload] of this.verified) if (payload.exp + CLOCK_SKEW_MS < now) this.verified.delete(token);
    // Still full of live entries (a flood): start over rather than grow without bound.
    if (this.verified.size >= 10_000) this.verified.clear();
  }
}
