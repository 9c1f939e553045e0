import { generateKeyPairSync } from "node:crypto";
import { readPublicKey, Verifier, type CallerAssertion } from "./bus-auth";
import { busAuthMiddleware, CALLER_ASSERTION_REUSE_MS, forgetCallerAssertions, signCaller } from "./bus-auth-middleware";
import type { Config } from "./config";

const der = (key: { export(o: object): Buffer | string }, type: "pkcs8" | "spki") => (key.export({ type, format: "der" }) as Buffer).toString("base64");
const pair = () => generateKeyPairSync("ed25519");
const gateway = pair();
const service = pair();
// A gateway's middleware on a bus: it holds the caller signing key.
busAuthMiddleware({ TRANSPORTER: "nats://127.0.0.1:4222", SERVICE_SIGNING_KEY: der(service.privateKey, "pkcs8"), CALLER_SIGNING_KEY: der(gateway.privateKey, "pkcs8") } as unknown as Config);
const verifier = new Verifier<CallerAssertion>([readPublicKey(der(gateway.publicKey, "spki"))]);

const alice = { id: 2, username: "alice", admin: false };
beforeEach(() => forgetCallerAssertions());

test("a caller's assertion is signed once and carried by their next requests while it outlives their deadlines", () => {
  const now = 1_000_000;
  const first = signCaller({ caller: alice, tokenId: 7 }, now + 35_000, now)!;
  expect(verifier.verify(first, now)).toMatchObject({ caller: alice, tokenId: 7, exp: now + 35_000 + CALLER_ASSERTION_REUSE_MS });
  expect(signCaller({ caller: alice, tokenId: 7 }, now + 35_000 + CALLER_ASSERTION_REUSE_MS, now + CALLER_ASSERTION_REUSE_MS)).toBe(first);
  // A request whose deadline it would not reach gets a new one.
  const next = signCaller({ caller: alice, tokenId: 7 }, now + 35_001 + CALLER_ASSERTION_REUSE_MS, now + CALLER_ASSERTION_REUSE_MS + 1)!;
  expect(next).not.toBe(first);
  expect(verifier.verify(next, now + CALLER_ASSERTION_REUSE_MS + 1)?.exp).toBe(now + 35_001 + 2 * CALLER_ASSERTION_REUSE_MS);
});

test("another caller, token, group or anything of the caller gets its own assertion; an identity flush forgets them all", () => {
  const now = 2_000_000;
  const deadline = now + 35_000;
  const base = signCaller({ caller: alice, tokenId: 7 }, deadline, now);
  const others = [
    signCaller({ caller: { ...alice, admin: true }, tokenId: 7 }, deadline, now),
    signCaller({ caller: alice, tokenId: 8 }, deadline, now),
    signCaller({ caller: alice, tokenId: 7, scimGroupId: 3 }, deadline, now),
    signCaller({ caller: null }, deadline, now),
  ];
  expect(new Set([base, ...others]).size).toBe(5);
  expect(others.map((t) => verifier.verify(t, now)?.caller)).toEqual([{ ...alice, admin: true }, alice, alice, null]);
  expect(forgetCallerAssertions()).toBe(5);
  // (Ed25519 signs deterministically: the new one differs by its expiry.)
  expect(signCaller({ caller: alice, tokenId: 7 }, deadline + 1, now)).not.toBe(base);
});
