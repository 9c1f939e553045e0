import { errorEventFields, parseEnvelope } from "./envelope";
import { publicKeyOf } from "./sentry-auth";

const lines = (...parts: unknown[]) => Buffer.from(parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join("\n"));

describe("parseEnvelope", () => {
  test("a header and newline-delimited items, a trailing newline tolerated", () => {
    const env = parseEnvelope(Buffer.concat([lines({ event_id: "e1" }, { type: "event" }, { message: "a" }, { type: "client_report" }, { x: 1 }), Buffer.from("\n")]));
    expect(env.header).toEqual({ event_id: "e1" });
    expect(env.items).toEqual([
      { type: "event", payload: { message: "a" } },
      { type: "client_report", payload: { x: 1 } },
    ]);
  });

  test("an item with a length takes exactly that many bytes, newlines and multi-byte characters included", () => {
    const payload = Buffer.from('{"a":\n"é"}');
    const body = Buffer.concat([Buffer.from(`{}\n{"type":"event","length":${payload.length}}\n`), payload, Buffer.from('\n{"type":"session"}\n{"s":1}')]);
    expect(parseEnvelope(body).items).toEqual([
      { type: "event", payload: { a: "é" } },
      { type: "session", payload: { s: 1 } },
    ]);
  });

  test("attachments are kept as items without parsing their bytes", () => {
    const body = Buffer.from('{}\n{"type":"attachment","length":3}\n\x00\x01\x02');
    expect(parseEnvelope(body).items).toEqual([{ type: "attachment", payload: null }]);
  });

  test.each([
    ["not JSON", "nope"],
    ["a header that is not an object", "[1]\n{}"],
    ["an item header without a type", '{}\n{"length":2}\n{}'],
    ["a length past the end", '{}\n{"type":"event","length":99}\n{}'],
    ["a negative length", '{}\n{"type":"event","length":-1}\n{}'],
    ["a payload that is not JSON", '{}\n{"type":"event"}\n{oops'],
  ])("refuses %s", (_what, body) => {
    expect(() => parseEnvelope(Buffer.from(body))).toThrow();
  });
});

describe("errorEventFields", () => {
  const now = new Date("2024-01-01T00:00:00Z");
  const id = "AbCdEf0123456789abcdef0123456789";

  test("the thrown exception (the last of a chain), platform, environment and the timestamp", () => {
    const fields = errorEventFields(
      { event_id: id, platform: "node", environment: "prod", timestamp: 1_700_000_000.25, exception: { values: [{ type: "Cause", value: "inner" }, { type: "TypeError", value: "x is undefined" }] } },
      undefined,
      now,
    );
    expect(fields).toEqual({ eventId: id.toLowerCase(), exceptionType: "TypeError", exceptionMessage: "x is undefined", platform: "node", environment: "prod", occurredAt: new Date(1_700_000_000_250) });
  });

  test("event id from the envelope header (UUID form), ISO timestamps, an exception list, defaults", () => {
    const fields = errorEventFields({ timestamp: "2023-05-01T10:00:00Z", exception: [{ value: "boom" }] }, "01234567-89ab-cdef-0123-456789abcdef", now);
    expect(fields).toEqual({ eventId: "0123456789abcdef0123456789abcdef", exceptionType: null, exceptionMessage: "boom", platform: null, environment: null, occurredAt: new Date("2023-05-01T10:00:00Z") });
    expect(errorEventFields({ event_id: id, exception: { values: [{ type: "E" }] }, timestamp: "garbage" }, undefined, now)?.occurredAt).toEqual(now);
  });

  test.each([
    ["not an object", "x"],
    ["no event id", { exception: { values: [{ type: "E" }] } }],
    ["a malformed event id", { event_id: "nope", exception: { values: [{ type: "E" }] } }],
    ["no exception", { event_id: id, message: "hello" }],
    ["an empty exception list", { event_id: id, exception: { values: [] } }],
  ])("undefined for %s (Unsupported sentry payload)", (_what, payload) => {
    expect(errorEventFields(payload)).toBeUndefined();
  });
});

describe("publicKeyOf", () => {
  test("the query param wins, else the X-Sentry-Auth header's sentry_key", () => {
    expect(publicKeyOf("glet_q", "Sentry sentry_key=glet_h")).toBe("glet_q");
    expect(publicKeyOf(undefined, "Sentry sentry_version=7, sentry_client=x/1.0, sentry_key=glet_h")).toBe("glet_h");
    expect(publicKeyOf(undefined, "Sentry sentry_version=7")).toBeUndefined();
    expect(publicKeyOf(undefined, undefined)).toBeUndefined();
  });

  test("a header that does not parse throws (400 Failed to parse sentry request)", () => {
    expect(() => publicKeyOf(undefined, "Sentry nonsense")).toThrow();
  });
});
