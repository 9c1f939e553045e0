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

  test("a JSON body that is not an object carries no params, as in Grape", async () => {
    for (const body of ["null", "[]", "[1]", '[{"title":"x"}]', '"title"', "1", "true"]) {
      expect({ body, parsed: await post(body, { "content-type": "application/json" }) }).toEqual({ body, parsed: { status: 200, body: {} } });
    }
  });

  test("a body over the limit is 413", async () => {
    expect(await post(JSON.stringify({ a: "x".repeat(2000) }), { "content-type": "application/json" })).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
  });
});
