import { PageSerializer } from "./page-serializer";

const serializer = new PageSerializer();
const roundTrip = (payload: Record<string, unknown>) => serializer.deserialize(serializer.serialize(payload));

test("a reply carrying a serialised page travels as a JSON head and the items' text as it is", () => {
  const itemsJson = JSON.stringify([{ id: 1, title: 'say "hi"\nthen \u00e9 \u{1F600}', body: "a\\b" }, { id: 2 }]);
  const payload = { ver: "5", sender: "issues-1", id: "r1", success: true, data: { $page: true, itemsJson, total: 2, page: 1, perPage: 20 }, meta: { $x: "y" } };
  const bytes = serializer.serialize(payload);
  expect(bytes[0]).toBe(0);
  // The items are not escaped into a string: their text follows the head byte for byte.
  expect(bytes.subarray(bytes.length - Buffer.byteLength(itemsJson)).toString()).toBe(itemsJson);
  expect(roundTrip(payload)).toEqual(payload);
});

test("every other packet is plain JSON, both ways", () => {
  for (const payload of [
    { ver: "5", sender: "gw", id: "r2", action: "demo.things.list", params: { id: 1 }, meta: {} },
    { ver: "5", id: "r3", success: true, data: { $page: true, items: [{ id: 1 }], total: 1, page: 1, perPage: 20 } },
    { ver: "5", id: "r4", success: true, data: null },
    { ver: "5", id: "r5", success: false, error: { name: "ApiError", message: "404" } },
  ]) {
    const bytes = serializer.serialize(payload);
    expect(JSON.parse(bytes.toString())).toEqual(payload);
    expect(roundTrip(payload)).toEqual(payload);
  }
  // What another process's plain JSON serializer wrote reads as well.
  expect(serializer.deserialize(Buffer.from('{"a":[1,"\\n"]}'))).toEqual({ a: [1, "\n"] });
});

test("a stream chunk's bytes travel after a JSON head as they are, both ways", () => {
  const bytes = Buffer.from([0, 1, 2, 10, 13, 255, 0x22, 0x5c]);
  for (const [field, payload] of [
    ["params", { ver: "5", sender: "gw", id: "s1", action: "demo.files.upload", params: bytes, meta: {}, stream: true, seq: 3 }],
    ["data", { ver: "5", sender: "svc", id: "s2", success: true, data: bytes, stream: true, seq: 4 }],
  ] as const) {
    const wire = serializer.serialize(payload);
    expect(wire[0]).toBe(1);
    expect(wire.subarray(wire.length - bytes.length)).toEqual(bytes);
    const back = serializer.deserialize(wire);
    expect(Buffer.isBuffer(back[field])).toBe(true);
    expect(back).toEqual(payload);
  }
});
