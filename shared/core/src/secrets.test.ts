import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "./config";
import { generateSecretsKey, isSealed, Keyring, readOrCreateSecretsKey, secretsKeyring, SecretsError } from "./secrets";

const key = () => Buffer.from(generateSecretsKey(), "base64");
const PLAIN = "https://discord.com/api/webhooks/1/tok-ünïcode-🔑";

describe("the envelope", () => {
  const ringKey = key();
  const ring = new Keyring(ringKey);

  test("round trip; a fresh nonce every time; the versioned envelope names the key", () => {
    const a = ring.seal(PLAIN);
    const b = ring.seal(PLAIN);
    expect(a).toMatch(new RegExp(`^enc:v1:${ring.currentKeyId}:[A-Za-z0-9+/]+=*$`));
    expect(a).not.toBe(b);
    expect(a).not.toContain("discord");
    expect(ring.open(a)).toBe(PLAIN);
    expect(ring.open(ring.seal(""))).toBe("");
    expect(isSealed(a)).toBe(true);
  });

  test("tampering is detected: a changed byte, another key id, a truncated or unknown envelope", () => {
    const sealed = ring.seal(PLAIN);
    const [prefix, version, kid, body] = sealed.split(":");
    const bytes = Buffer.from(body, "base64");
    bytes[bytes.length - 20] ^= 1;
    expect(() => ring.open([prefix, version, kid, bytes.toString("base64")].join(":"))).toThrow(SecretsError);
    // The header is authenticated too: the same body under another (known) key id fails.
    const other = new Keyring(key(), [ringKey]);
    expect(() => other.open([prefix, version, other.currentKeyId, body].join(":"))).toThrow(/failed authentication/);
    expect(() => ring.open(`${prefix}:${version}:${kid}:AAAA`)).toThrow(/truncated/);
    expect(() => ring.open(`enc:v2:${kid}:${body}`)).toThrow(/unknown envelope/);
    // A key not in the ring is named; no message carries the value.
    let message = "";
    try {
      new Keyring(key()).open(sealed);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(`a secret is sealed with key ${kid}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`);
  });

  test("a value written in clear by an earlier version reads as it is and needs sealing", () => {
    expect(ring.open(PLAIN)).toBe(PLAIN);
    expect(ring.needsResealing(PLAIN)).toBe(true);
    const sealed = ring.reseal(PLAIN);
    expect(isSealed(sealed)).toBe(true);
    expect(ring.open(sealed)).toBe(PLAIN);
  });
});

describe("rotation", () => {
  test("an old key's value still opens once it is in SECRETS_KEY_PREVIOUS, and is resealed with the new key", () => {
    const oldKey = key();
    const before = new Keyring(oldKey).seal(PLAIN);
    const newKey = key();
    const after = new Keyring(newKey, [key(), oldKey]);
    expect(after.open(before)).toBe(PLAIN);
    expect(after.needsResealing(before)).toBe(true);
    const resealed = after.reseal(before);
    expect(resealed.split(":")[2]).toBe(after.currentKeyId);
    expect(after.needsResealing(resealed)).toBe(false);
    expect(after.reseal(resealed)).toBe(resealed);
    // Once the old key is dropped, only the resealed value opens.
    const newOnly = new Keyring(newKey);
    expect(newOnly.open(resealed)).toBe(PLAIN);
    expect(() => newOnly.open(before)).toThrow(SecretsError);
  });

  test("the process's keyring comes from SECRETS_KEY and SECRETS_KEY_PREVIOUS", () => {
    const [current, old1, old2] = [generateSecretsKey(), generateSecretsKey(), generateSecretsKey()];
    const sealedOld = new Keyring(Buffer.from(old2, "base64")).seal("x");
    const ring = secretsKeyring(loadConfig({ SECRETS_KEY: current, SECRETS_KEY_PREVIOUS: ` ${old1}, ${old2} ` }), "the test");
    expect(ring.open(sealedOld)).toBe("x");
    expect(ring.currentKeyId).toBe(new Keyring(Buffer.from(current, "base64")).currentKeyId);
  });
});

describe("configuration", () => {
  test("SECRETS_KEY must be 32 bytes in base64; the error says how to make one", () => {
    expect(() => loadConfig({ SECRETS_KEY: "too-short" })).toThrow(/SECRETS_KEY: must be 32 random bytes in base64 \(generate one with: openssl rand -base64 32\)/);
    expect(() => loadConfig({ SECRETS_KEY: Buffer.alloc(16).toString("base64") })).toThrow(/SECRETS_KEY:/);
    expect(() => loadConfig({ SECRETS_KEY: generateSecretsKey(), SECRETS_KEY_PREVIOUS: "nope" })).toThrow(/SECRETS_KEY_PREVIOUS: each key must be 32 random bytes/);
    expect(loadConfig({ SECRETS_KEY: "" }).SECRETS_KEY).toBeUndefined();
  });

  test("a process that stores secrets refuses to start without SECRETS_KEY, naming itself", () => {
    expect(() => secretsKeyring(loadConfig({}), "the integrations service")).toThrow(/SECRETS_KEY is required by the integrations service/);
  });

  test("npm start's key file: created once (mode 600), then read back; one that is not a key is refused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "collab-secrets-key-"));
    try {
      const file = path.join(dir, "secrets-key");
      const first = readOrCreateSecretsKey(file);
      expect(loadConfig({ SECRETS_KEY: first }).SECRETS_KEY).toBe(first);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(readOrCreateSecretsKey(file)).toBe(first);
      fs.writeFileSync(file, "garbage\n");
      expect(() => readOrCreateSecretsKey(file)).toThrow(/does not hold a secrets key/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
