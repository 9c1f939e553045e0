import type { ServiceBroker } from "moleculer";
import { flushEverywhere, flushIdentityEverywhere, FlushableCache, IdentityHolders } from "./flushed-caches";

describe("FlushableCache", () => {
  test("holds an entry for at most its maximum age", () => {
    const cache = new FlushableCache<string>(30_000);
    cache.set("k", "v", cache.generation(), Infinity, 1_000);
    expect(cache.get("k", 30_999)).toBe("v");
    expect(cache.get("k", 31_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test("holds an entry no longer than the expiry it is given, and not at all when that has passed", () => {
    const cache = new FlushableCache<string>(30_000);
    cache.set("k", "v", cache.generation(), 5_000, 1_000);
    expect(cache.get("k", 4_999)).toBe("v");
    expect(cache.get("k", 5_000)).toBeUndefined();
    expect(cache.set("gone", "v", cache.generation(), 1_000, 1_000)).toBe(false);
  });

  test("a flush forgets every entry and refuses answers looked up before it", () => {
    const cache = new FlushableCache<string>();
    const before = cache.generation();
    cache.set("a", "1", before);
    cache.set("b", "2", before);
    expect(cache.flush()).toBe(2);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.set("c", "3", before)).toBe(false);
    expect(cache.set("c", "3", cache.generation())).toBe(true);
  });

  test("when full, the oldest entries go first", () => {
    const cache = new FlushableCache<number>(30_000, 3);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i, cache.generation());
    expect(cache.size).toBe(3);
    expect(cache.get("k0")).toBeUndefined();
    expect(cache.get("k1")).toBeUndefined();
    expect(cache.get("k4")).toBe(4);
  });
});

describe("flushIdentityEverywhere", () => {
  function brokerWith(endpoints: { id: string; isAvailable: boolean }[], answer: (nodeID: string) => Promise<unknown>) {
    const calls: { action: string; nodeID: string }[] = [];
    const errors: unknown[] = [];
    const broker = {
      registry: { getActionEndpoints: (name: string) => (name === IdentityHolders.flush.name ? { endpoints } : undefined) },
      logger: { error: (...args: unknown[]) => errors.push(args) },
      call: (action: string, _params: unknown, opts: { nodeID: string }) => (calls.push({ action, nodeID: opts.nodeID }), answer(opts.nodeID)),
    } as unknown as ServiceBroker;
    return { broker, calls, errors };
  }

  test("calls the flush on every available gateway node and answers those that acknowledged", async () => {
    const { broker, calls } = brokerWith(
      [
        { id: "gw-1", isAvailable: true },
        { id: "gw-2", isAvailable: true },
        { id: "gw-3", isAvailable: false },
      ],
      async () => ({ flushed: 1 }),
    );
    expect((await flushIdentityEverywhere(broker, "test")).sort()).toEqual(["gateway.identity.flush@gw-1", "gateway.identity.flush@gw-2"]);
    expect(calls.map((c) => c.nodeID).sort()).toEqual(["gw-1", "gw-2"]);
  });

  test("a node that fails to acknowledge is logged, the others still count", async () => {
    const { broker, errors } = brokerWith(
      [
        { id: "gw-1", isAvailable: true },
        { id: "gw-2", isAvailable: true },
      ],
      async (node) => {
        if (node === "gw-2") throw new Error("Request timed out");
        return { flushed: 0 };
      },
    );
    expect(await flushIdentityEverywhere(broker, "test")).toEqual(["gateway.identity.flush@gw-1"]);
    expect(errors).toHaveLength(1);
  });

  test("no gateway on the bus: nothing to wait for", async () => {
    const broker = { registry: { getActionEndpoints: () => undefined }, logger: { error: jest.fn() }, call: jest.fn() } as unknown as ServiceBroker;
    expect(await flushIdentityEverywhere(broker, "test")).toEqual([]);
  });
});

describe("flushEverywhere by suffix", () => {
  test("calls every action ending with the suffix, on each of its nodes", async () => {
    const endpoints: Record<string, { id: string; isAvailable: boolean }[]> = {
      "demo.accessCache.flush": [
        { id: "issues-1", isAvailable: true },
        { id: "issues-2", isAvailable: true },
      ],
      "other.accessCache.flush": [{ id: "mr-1", isAvailable: true }],
      "demo.list": [{ id: "issues-1", isAvailable: true }],
    };
    const calls: string[] = [];
    const broker = {
      registry: { getActionList: () => Object.keys(endpoints).map((name) => ({ name })), getActionEndpoints: (name: string) => ({ endpoints: endpoints[name] }) },
      logger: { error: jest.fn() },
      call: async (action: string, _p: unknown, opts: { nodeID: string }) => (calls.push(`${action}@${opts.nodeID}`), { flushed: 0 }),
    } as unknown as ServiceBroker;
    await flushEverywhere(broker, { suffix: "accessCache.flush" }, "test");
    expect(calls.sort()).toEqual(["demo.accessCache.flush@issues-1", "demo.accessCache.flush@issues-2", "other.accessCache.flush@mr-1"]);
  });
});
