import { errorBodyOf } from "@collab/core";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { bodyParsers } from "./body-parsers";

/** A bare HTTP server running the parsers, answering the parsed body or the parser's error as the gateway would. */
let server: Server;
let url: string;
beforeAll(async () => {
  const [json, objectsOnly, form] = bodyParsers(1024);
  server = createServer((req, res) => {
    const done = (err?: unknown) => {
      const known = err === undefined ? undefined : errorBodyOf(err);
      res.statusCode = known?.status ?? (err ? 500 : 200);
      res.end(JSON.stringify(known?.body ?? (req as { body?: unknown }).body ?? null));
    };
    json(req, res, (err) => (err ? done(err) : objectsOnly(req, res, (e) => (e ? done(e) : form(req, res, done)))));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = async (body: string | Buffer, headers: Record<string, string>) => {
  const res = await fetch(url, { method: "POST", body, headers });
  return { status: res.status, body: await res.json() };
};
const INVALID = { message: "400 Bad request - Invalid request body" };

describe("bodyParsers", () => {
  test("JSON (also vendor +json) and forms are parsed", async () => {
    expect(await post('{"title":"x"}', { "content-type": "application/json" })).toEqual({ status: 200, body: { title: "x" } });
    expect(await post('{"title":"x"}', { "content-type": "application/merge-patch+json" })).toEqual({ status: 200, body: { title: "x" } });
    expect(await post("title=x&labels[]=a", { "content-type": "application/x-www-form-urlencoded" })).toEqual({ status: 200, body: { title: "x", labels: ["a"] } });
    expect(await post(gzipSync('{"a":1}'), { "content-type": "application/json", "content-encoding": "gzip" })).toEqual({ status: 200, body: { a: 1 } });
  });

  test("unreadable bodies are 400 with GitLab's body, never a 500", async () => {
    expect(await post("{not json", { "content-type": "application/json" })).toEqual({ status: 400, body: INVALID });
    expect(await post(Buffer.from("1f8b0800", "hex"), { "content-type": "application/json", "content-encoding": "gzip" })).toEqual({ status: 400, body: INVALID });
    expect(await post('{"a":1}', { "content-type": "application/json", "content-encoding": "br2" })).toEqual({ status: 400, body: INVALID });
    expect(await post('{"a":1}', { "content-type": "application/json; charset=klingon" })).toEqual({ status: 400, body: INVALID });
    expect(await post(`a${"[a]".repeat(100)}=1`, { "content-type": "application/x-www-form-urlencoded" })).toEqual({ status: 400, body: INVALID });
  });

  test("a JSON or form body that is not UTF-8, or a form escape that does not decode, is 400: never stored as U+FFFD or as its escape text", async () => {
    const json = (bytes: Buffer) => Buffer.concat([Buffer.from('{"title":"'), bytes, Buffer.from('"}')]);
    for (const bytes of [Buffer.from([0xff, 0xfe]), Buffer.from("caf\xe9", "latin1"), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xc0, 0x80])]) {
      expect(await post(json(bytes), { "content-type": "application/json" })).toEqual({ status: 400, body: INVALID });
      expect(await post(Buffer.concat([Buffer.from("title="), bytes]), { "content-type": "application/x-www-form-urlencoded" })).toEqual({ status: 400, body: INVALID });
    }
    for (const form of ["title=%ff%fe", "title=caf%e9", "title=%ed%a0%80", "title=100%", "title=%zz", "title=ok&x%ffy=1"]) {
      expect({ form, res: await post(form, { "content-type": "application/x-www-form-urlencoded" }) }).toEqual({ form, res: { status: 400, body: INVALID } });
    }
  });

  test("valid UTF-8 goes through as sent: raw, escaped, in other charsets", async () => {
    const text = "caf\u00e9 \u202e\u200b\ufeff\u0001 👩‍👩‍👧‍👦 🇺🇸 e\u0301";
    expect(await post(JSON.stringify({ title: text }), { "content-type": "application/json" })).toEqual({ status: 200, body: { title: text } });
    expect(await post(`title=${encodeURIComponent(text)}&search=50%25+off`, { "content-type": "application/x-www-form-urlencoded" })).toEqual({ status: 200, body: { title: text, search: "50% off" } });
    expect(await post(Buffer.from(JSON.stringify({ title: text }), "utf16le"), { "content-type": "application/json; charset=utf-16le" })).toEqual({ status: 200, body: { title: text } });
    expect(await post(Buffer.from("title=caf\xe9", "latin1"), { "content-type": "application/x-www-form-urlencoded; charset=iso-8859-1" })).toEqual({ status: 200, body: { title: "café" } });
  });

  test("a JSON body that is not an object carries no params, as in Grape", async () => {
    for (const body of ["null", "[]", "[1]", '[{"title":"x"}]', '"title"', "1", "true"]) {
      expect({ body, parsed: await post(body, { "content-type": "application/json" }) }).toEqual({ body, parsed: { status: 200, body: {} } });
    }
  });

  test("a body over the limit is 413", async () => {
    expect(await post(JSON.stringify({ a: "x".repeat(2000) }), { "content-type": "application/json" })).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
  });
});
