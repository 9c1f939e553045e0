import { broadcastContract, eventContract, pickFields } from "@collab/core";
import { z } from "zod";
import { consumersOf, on, type Subscription } from "./consumers";

const id = z.number().int().positive();
const Opened = eventContract("demo.thing.opened", () => z.object({ id, title: z.string(), flag: z.boolean() }));
const Closed = eventContract("demo.thing.closed", () => z.object({ id, title: z.string(), reason: z.string() }));
const noop = async () => undefined;

describe("subscriptions through contract entries", () => {
  test("the key is the entry's name, the payload is parsed with the producer's schema", () => {
    const consumers = consumersOf("demo", [on(Opened, noop)]);
    expect(Object.keys(consumers)).toEqual(["demo.thing.opened"]);
    expect(consumers["demo.thing.opened"].schema.safeParse({ id: 1, title: "t", flag: true, extra: 1 })).toEqual({ success: true, data: { id: 1, title: "t", flag: true } });
    expect(consumers["demo.thing.opened"].schema.safeParse({ id: 1, title: "t" }).success).toBe(false);
  });

  test("a consumer reading a part of the payload checks that part only, the same selector for several entries", () => {
    const part = pickFields("id", "title");
    const consumers = consumersOf("demo", [on(Opened, part, noop), on(Closed, part, noop)]);
    expect(consumers["demo.thing.opened"].schema.safeParse({ id: 2, title: "t" })).toEqual({ success: true, data: { id: 2, title: "t" } });
    expect(consumers["demo.thing.closed"].schema.safeParse({ id: 2, title: "t", reason: "done" })).toEqual({ success: true, data: { id: 2, title: "t" } });
    expect(consumers["demo.thing.closed"].schema.safeParse({ id: "2", title: "t" }).success).toBe(false);
  });

  test("an event consumed twice throws, as does a broadcast given as a durable event", () => {
    expect(() => consumersOf("demo", [on(Opened, noop), on(Opened, noop)])).toThrow("demo: event demo.thing.opened is consumed twice");
    const notDurable = { event: broadcastContract("demo.thing.told", () => z.object({})), consumer: on(Opened, noop).consumer } as unknown as Subscription;
    expect(() => consumersOf("demo", [notDurable])).toThrow("demo: demo.thing.told is not a durable event");
  });

  test("the handler gets the parsed payload", async () => {
    const seen: unknown[] = [];
    const { handle } = on(Opened, pickFields("id"), async (p) => void seen.push(p.id)).consumer;
    await handle({ id: 5 }, undefined as never, { id: "e", name: Opened.name, occurredAt: "t" }, () => undefined);
    expect(seen).toEqual([5]);
  });
});
