import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));

/**
 * scrypt work factor (N). The default suits production; test runs lower it through
 * PASSWORD_HASH_COST, as Rails apps lower Devise's stretches in tests. The factor is stored in
 * each digest, so digests made at any cost keep verifying.
 */
const cost = () => Number(process.env.PASSWORD_HASH_COST ?? 16384);

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = cost();
  const hash = await scrypt(password, salt, 32, { N });
  return `scrypt$${N}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function verifyPassword(password: string, digest: string): Promise<boolean> {
  const [kind, n, salt, hash] = digest.split("$");
  if (kind !== "scrypt" || !n || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, { N: Number(n) });
  return timingSafeEqual(actual, expected);
}
