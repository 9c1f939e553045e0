import type { Context, ServiceBroker, ServiceSchema } from "moleculer";
import { z } from "zod";
import { actionContract, call, implement, type ActionContract, type ImplementedAction } from "./contract";

/**
 * Caches of identity and permissions, held in memory where they are used, and safe because of how
 * they are emptied: every change that may alter a held answer calls the flush action of every
 * holder on every live node and waits for each to acknowledge before the change answers
 * (`flushEverywhere`). Entries also expire on their own after HELD_MAX_AGE_MS (the backstop for a
 * holder that missed a flush), and only successful answers are held: a refusal is asked again.
 *
 * - Identity at the edge: the gateway holds token → caller; accounts flushes (IdentityHolders).
 * - Project access: the work-item services hold namespaces' access.project answers; namespaces
 *   flushes every `<service>.accessCache.flush` (see @collab/work-items).
 * - User refs, labels and milestones (display data): the work-item services hold them; each
 *   empties them when it applies their owner's durable events (@collab/work-items, users.ts and
 *   page-refs.ts).
 */

/** The backstop: nothing is held longer than this, flushed or not. */
export const HELD_MAX_AGE_MS = 30_000;

/** How long a change waits for each holder's acknowledgement before it logs the node and goes on. */
export const FLUSH_TIMEOUT_MS = 5_000;

const flushInput = () => z.object({ reason: z.string().max(200) });
const flushOutput = () => z.object({ flushed: z.number().int() });

/** The flush action of a holder: `<service>.<cache>.flush`. */
export const flushContract = (name: string) => actionContract(name, { input: flushInput, output: flushOutput });

/** The gateway's identity cache (token → caller). */
export const IdentityHolders = {
  flush: flushContract("gateway.identity.flush"),
};

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
export class FlushableCache<V> {
  private entries = new Map<string, Entry<V>>();
  private gen = 0;

  constructor(
    private readonly maxAgeMs = HELD_MAX_AGE_MS,
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

/**
 * A cache a process holds only once one of its services implements its flush action
 * (`<service>.<suffix>`): a process nobody can flush holds nothing (`held` stays false).
 */
export function processCache<V>(suffix: string) {
  const cache = new FlushableCache<V>();
  const companions: FlushableCache<unknown>[] = [];
  let held = false;
  return {
    cache,
    get held() {
      return held;
    },
    /**
     * Another cache the same flush empties: answers of the same owner that the same writes change
     * (held, like the first, only once the flush is implemented in this process).
     */
    companion<W>(): FlushableCache<W> {
      const c = new FlushableCache<W>();
      companions.push(c as FlushableCache<unknown>);
      return c;
    },
    /** Implements a service's flush of this cache (its contract entry), and so turns holding on in this process. */
    holder(entry: ReturnType<typeof flushContract>): ImplementedAction {
      if (!entry.name.endsWith(`.${suffix}`)) throw new Error(`${entry.name}: a flush of this cache is <service>.${suffix}`);
      held = true;
      return implement(entry, () => ({ flushed: companions.reduce((n, c) => n + c.flush(), cache.flush()) }));
    },
  };
}

type Via = Context | ServiceBroker;
const brokerOf = (via: Via): ServiceBroker => ("broker" in via && via.broker ? via.broker : (via as ServiceBroker));

/**
 * Calls every holder's flush action — the actions named `name`, or ending with `.<suffix>` — on
 * every node that has one, and waits for each. A node that does not answer within
 * FLUSH_TIMEOUT_MS is logged (what it holds still expires within HELD_MAX_AGE_MS). Answers the
 * `action@node` pairs that acknowledged.
 */
export async function flushEverywhere(via: Via, holders: { name: string } | { suffix: string }, reason: string): Promise<string[]> {
  const broker = brokerOf(via);
  const names =
    "name" in holders
      ? [holders.name]
      : broker.registry
          .getActionList({ skipInternal: true })
          .map((a: { name: string }) => a.name)
          .filter((n: string) => n.endsWith(`.${holders.suffix}`));
  const targets = names.flatMap((name) => (broker.registry.getActionEndpoints(name)?.endpoints ?? []).filter((e) => e.isAvailable).map((e) => ({ name, nodeID: e.id })));
  const acknowledged: string[] = [];
  await Promise.all(
    targets.map(async ({ name, nodeID }) => {
      try {
        await call(via, flushContract(name), { reason: reason.slice(0, 200) }, { nodeID, timeout: FLUSH_TIMEOUT_MS, retries: 0 });
        acknowledged.push(`${name}@${nodeID}`);
      } catch (err) {
        broker.logger.error({ holder: name, node: nodeID, reason, err: (err as Error).message }, "a cache holder did not acknowledge a flush; what it holds expires within 30 s");
      }
    }),
  );
  return acknowledged;
}

/** Flushes every gateway's identity cache (see IdentityHolders). */
export const flushIdentityEverywhere = (via: Via, reason: string) => flushEverywhere(via, IdentityHolders.flush, reason);

/** Holders of namespaces' access.project answers each implement `<service>.accessCache.flush`. */
export const ACCESS_CACHE_FLUSH = "accessCache.flush";

/** Flushes every held project access, in every service and on every node (see @collab/work-items). */
export const flushAccessEverywhere = (via: Via, reason: string) => flushEverywhere(via, { suffix: ACCESS_CACHE_FLUSH }, reason);

/** Holders of accounts' user refs (display data) each implement `<service>.userRefs.flush`. */
export const USER_REFS_FLUSH = "userRefs.flush";

/** Empties every held user ref, in every service and on every node (see @collab/work-items). */
export const flushUserRefsEverywhere = (via: Via, reason: string) => flushEverywhere(via, { suffix: USER_REFS_FLUSH }, reason);

/** Holders of namespaces' labels and milestones (display data) each implement `<service>.workItemRefs.flush`. */
export const WORK_ITEM_REFS_FLUSH = "workItemRefs.flush";

/** Empties every held label and milestone, in every service and on every node (see @collab/work-items). */
export const flushWorkItemRefsEverywhere = (via: Via, reason: string) => flushEverywhere(via, { suffix: WORK_ITEM_REFS_FLUSH }, reason);

type Actions = NonNullable<ServiceSchema["actions"]>;

/**
 * A service's action maps, where every write (an entry that is not idempotent) not listed in
 * `harmless` runs `flush` once it has answered or failed (it may have written before failing),
 * before its answer goes out. Reads answer untouched. A new write is flushed by default.
 */
export function flushingAfterWrites(maps: Actions[], harmless: ReadonlySet<string>, flush: (ctx: Context, action: string) => Promise<unknown>): Actions[] {
  const isWrite = (action: unknown): action is ImplementedAction => {
    const contract = typeof action === "object" && action !== null ? (action as Partial<ImplementedAction>).contract : undefined;
    return !!contract && !contract.idempotent && !harmless.has(contract.name);
  };
  return maps.map((map) =>
    Object.fromEntries(
      Object.entries(map).map(([key, action]) => {
        if (!isWrite(action)) return [key, action];
        const handler = action.handler as (this: unknown, ctx: Context) => unknown;
        const name = action.contract.name;
        return [
          key,
          {
            ...action,
            async handler(this: unknown, ctx: Context) {
              try {
                return await handler.call(this, ctx);
              } finally {
                await flush(ctx, name);
              }
            },
          },
        ];
      }),
    ),
  );
}

/** Names of contract entries, for `flushingAfterWrites`' harmless list. */
export const namesOf = (entries: ActionContract[]): ReadonlySet<string> => new Set(entries.map((e) => e.name));
