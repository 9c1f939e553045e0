import { raceSafeNatsAdapter } from "./channels";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Adapters } = require("@moleculer/channels") as { Adapters: { NATS: { prototype: { subscribe: (...args: unknown[]) => Promise<void> } } } };

const chan = { id: "collab.demo.thing.done", name: "collab.demo.thing.done", group: "demo.demo.thing.done" };
const race = () => Object.assign(new Error("consumer name already in use"), { api_error: { code: 400, err_code: 10013 } });

afterEach(() => jest.restoreAllMocks());

function adapterWith(answers: (() => Promise<void>)[]) {
  const calls: unknown[] = [];
  jest.spyOn(Adapters.NATS.prototype, "subscribe").mockImplementation(function (this: { activeMessages: Map<string, unknown[]> }) {
    // As the real one: it tracks the channel's messages before asking JetStream.
    if (this.activeMessages.has(chan.id)) throw new Error(`Already tracking active messages of channel ${chan.id}`);
    this.activeMessages.set(chan.id, []);
    calls.push(chan.id);
    return answers[calls.length - 1]();
  });
  const adapter = raceSafeNatsAdapter({ nats: { url: "nats://127.0.0.1:4222" } });
  adapter.logger = { warn: jest.fn() };
  return { adapter, calls };
}

test("a consumer group another replica is creating at the same moment is joined on a later attempt", async () => {
  const { adapter, calls } = adapterWith([() => Promise.reject(race()), () => Promise.reject(race()), () => Promise.resolve()]);
  await expect(adapter.subscribe(chan, {})).resolves.toBeUndefined();
  expect(calls).toHaveLength(3);
});

test("any other failure fails the subscription at once", async () => {
  const { adapter, calls } = adapterWith([() => Promise.reject(new Error("stream not found"))]);
  await expect(adapter.subscribe(chan, {})).rejects.toThrow("stream not found");
  expect(calls).toHaveLength(1);
});

test("the race is not retried for ever", async () => {
  const { adapter, calls } = adapterWith(Array.from({ length: 20 }, () => () => Promise.reject(race())));
  await expect(adapter.subscribe(chan, {})).rejects.toThrow("consumer name already in use");
  expect(calls).toHaveLength(8);
});
