import { errorBodyOf } from "@collab/core";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { rawBodyReader } from "./body-parsers";
import { guardRequest } from "./request-guard";

/** rawBodyReader behind a bare HTTP server: answers the bytes it kept (base64) and what is left in req.body. */
let server: Server;
let url: string;
beforeAll(async () => {
  const read = rawBodyReader(64);
  server = createServer((req, res) => {
    read(req, res, (err?: unknown) => {
      const known = err === undefined ? undefined : errorBodyOf(err);
      res.statusCode = known?.status ?? (err ? 500 : 200);
      const r = req as IncomingMessage & { body?: unknown; $rawBody?: Buffer };
      res.end(JSON.stringify(known?.body ?? { raw: r.$rawBody?.toString("base64"), body: r.body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = async (body: string | Buffer, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { method: "POST", body, headers });
  return { status: res.status, body: await res.json() };
};
const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("rawBodyReader", () => {
  test("any media type is kept as bytes, never merged into the params", async () => {
    expect(await post('{}\n{"type":"event"}\n{}', { "content-type": "application/x-sentry-envelope" })).toEqual({ status: 200, body: { raw: b64('{}\n{"type":"event"}\n{}'), body: {} } });
    expect(await post("plain", { "content-type": "text/plain" })).toEqual({ status: 200, body: { raw: b64("plain"), body: {} } });
  });

  test("a gzip body is inflated; a corrupt one is 400, an oversized one 413", async () => {
    expect(await post(gzipSync("zipped"), { "content-encoding": "gzip" })).toEqual({ status: 200, body: { raw: b64("zipped"), body: {} } });
    expect(await post(Buffer.from("not gzip"), { "content-encoding": "gzip" })).toEqual({ status: 400, body: { message: "400 Bad request - Invalid request body" } });
    expect(await post("x".repeat(65))).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
  });
});

describe("guardRequest on rawBody routes", () => {
  const req = { headers: { "content-type": "application/x-sentry-envelope", "content-length": "10" } } as unknown as IncomingMessage;
  const limit = { maxParamBytes: 1024 };
  test("the media type is not refused there, and still is elsewhere (415)", () => {
    expect(() => guardRequest(req, {}, { def: { method: "POST", path: "/c", action: "s.a", rawBody: {} }, ...limit })).not.toThrow();
    expect(() => guardRequest(req, {}, { def: { method: "POST", path: "/c", action: "s.a" }, ...limit })).toThrow();
    expect(() => guardRequest(req, { sentry_key: "a\0b" }, { def: { method: "POST", path: "/c", action: "s.a", rawBody: {} }, ...limit })).toThrow();
  });
});
