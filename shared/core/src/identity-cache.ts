import type { Context, ServiceBroker } from "moleculer";
import { z } from "zod";
import { actionContract, call } from "./contract";

/**
 * Identity at the edge. The gateway keeps token → caller in memory (IdentityCache) instead of
 * asking accounts on every request; what makes that safe is the flush: every change that can
 * affect a cached caller (a token revoked, rotated or deleted, a user blocked, banned, deactivated,
 * deleted, renamed, made admin or external…) calls `gateway.identity.flush` on every live gateway
 * node and waits for each to acknowledge before the change answers (`flushIdentityEverywhere`).
 * Entries also expire on their own after IDENTITY_MAX_AGE_MS, and at the token's expiry.
 */
export const IdentityHolders = {
  flush: actionContract("gateway.identity.flush", {
    input: () => z.object({ reason: z.string().max(200) }),
    output: () => z.object({ flushed: z.number().int() }),
  }),
};

/** The backstop: no cached identity is older than this, flushed or not. */
export const IDENTITY_MAX_AGE_MS = 30_000;

/** How long a change waits for each holder's acknowledgement before it logs the node and goes on. */
export const FLUSH_TIMEOUT_MS = 5_000;

interface Entry<V> {
  value: V;
  until: number;
}

/**
 * A map of entries that each expire, flushed whole on demand. A lookup that misses notes the
 * generation before asking the owner (`generation()`) and stores the answer with it: an answer that
 * was read before a flush and arrives after it is not stored, so a flush can never be undone by a
 * request that was already in flight.
 */
export class IdentityCache<V> {
  private entries = new Map<string, Entry<V>>();
  private gen = 0;

  constructor(
    private readonly maxAgeMs = IDENTITY_MAX_AGE_MS,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** The generation a lookup starts in: pass it to `set`. */
  generation(): number {
    return this.gen;
  }

  /** Stores `value` until `expiresAt` at the latest (and at most maxAgeMs), unless flushed since `generation`. */
  set(key: string, value: V, generation: number, expiresAt = Infinity, now = Date.now()): boolean {
    if (generation !== this.gen) return false;
    const until = Math.min(now + this.maxAgeMs, expiresAt);
    if (until <= now) return false;
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    // Insertion order is age order: the oldest go first when the map is full.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return true;
  }

  /** Forgets everything, and every lookup still in flight. Answers how many entries went. */
  flush(): number {
    const n = this.entries.size;
    this.entries.clear();
    this.gen++;
    return n;
  }

  get size(): number {
    return this.entries.size;
  }
}

type Via = Context | ServiceBroker;
const brokerOf = (via: Via): ServiceBroker => ("broker" in via && via.broker ? via.broker : (via as ServiceBroker));

/**
 * Flushes every gateway's identity cache and waits for each node to acknowledge. A node that does
 * not answer within FLUSH_TIMEOUT_MS is logged (its entries still expire within
 * IDENTITY_MAX_AGE_MS). Answers the nodes that acknowledged.
 */
export async function flushIdentityEverywhere(via: Via, reason: string): Promise<string[]> {
  const broker = brokerOf(via);
  const endpoints = broker.registry.getActionEndpoints(IdentityHolders.flush.name)?.endpoints ?? [];
  const nodes = endpoints.filter((e) => e.isAvailable).map((e) => e.id);
  const acknowledged: string[] = [];
  await Promise.all(
    nodes.map(async (nodeID) => {
      try {
        await call(via, IdentityHolders.flush, { reason: reason.slice(0, 200) }, { nodeID, timeout: FLUSH_TIMEOUT_MS, retries: 0 });
        acknowledged.push(nodeID);
      } catch (err) {
        broker.logger.error({ node: nodeID, reason, err: (err as Error).message }, "a gateway did not acknowledge an identity flush; its cached callers expire within 30 s");
      }
    }),
  );
  return acknowledged;
}
