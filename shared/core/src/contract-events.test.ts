import { z } from "zod";
import { announce, broadcast, broadcastContract, eventContract, noteEventContracts } from "./index";

describe("event and broadcast entries", () => {
  const Told = broadcastContract("demo.thing.told", () => z.object({ userId: z.number() }));

  test("announce pairs the entry's name with the payload, as the outbox writes it", () => {
    const Opened = eventContract("demo.thing.opened", () => z.object({ id: z.number() }));
    expect(announce(Opened, { id: 1 })).toEqual(["demo.thing.opened", { id: 1 }]);
  });

  test("broadcast sends the entry's name and the payload as given", async () => {
    const sent: unknown[] = [];
    const via = { broadcast: async (...args: unknown[]) => void sent.push(args) };
    await broadcast(via as never, Told, { userId: 3 });
    expect(sent).toEqual([["demo.thing.told", { userId: 3 }, undefined]]);
  });

  test("names are checked; note events are built per service", () => {
    expect(() => broadcastContract("nodots", () => z.object({}))).toThrow();
    const service = "issues";
    expect(Object.values(noteEventContracts(service)).map((e) => e.name)).toEqual(["created", "updated", "deleted"].map((what) => `${service}.note.${what}`));
  });
});
