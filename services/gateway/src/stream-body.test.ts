import { action, ApiError, badRequest, resetSettings, type RouteDef } from "@collab/core";
import { createHash } from "node:crypto";
import { ServiceBroker, type Context } from "moleculer";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { z } from "zod";
import { createGatewayService } from "./gateway.service";

/**
 * RouteDef.streamBody through the real gateway: the body reaches the action unparsed as ctx.stream,
 * whatever its media type, with its headers in the params; an action refusing it unread still
 * answers; a declared length over MAX_UPLOAD_BYTES is 413 before the action runs.
 */
const routes: RouteDef[] = [
  { method: "PUT", path: "/uploads/:name", action: "uploads.put", auth: "optional", streamBody: true },
  { method: "PUT", path: "/refused/:name", action: "uploads.refuse", auth: "optional", streamBody: true },
  { method: "PUT", path: "/partial/:name", action: "uploads.partial", auth: "optional", streamBody: true },
];
let broker: ServiceBroker;
let url: string;
let calls = 0;

async function digestOf(stream: Readable) {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest("hex") };
}

beforeAll(async () => {
  resetSettings(); // no admin service here: the gateway is given GitLab's default settings
  process.env.PORT = "0";
  process.env.MAX_UPLOAD_BYTES = String(4 * 1024 * 1024);
  broker = new ServiceBroker({ logger: false });
  broker.createService(createGatewayService(routes, [], new Map()));
  broker.createService({
    name: "uploads",
    actions: {
      put: action({
        input: () => z.object({ name: z.string(), headers: z.record(z.string(), z.string()) }),
        async handler(ctx: Context<{ name: string; headers: Record<string, string> }>) {
          calls++;
          return { name: ctx.params.name, headers: ctx.params.headers, ...(await digestOf(ctx.stream as Readable)) };
        },
      }),
      /** Reads the first piece only, then gives up as an over-limit upload would. */
      partial: action({
        input: () => z.object({ name: z.string() }),
        async handler(ctx: Context<{ name: string }>) {
          const pieces = (ctx.stream as Readable)[Symbol.asyncIterator]();
          await pieces.next();
          throw new ApiError(413, { message: "413 Request Entity Too Large" }, "PAYLOAD_TOO_LARGE");
        },
      }),
      refuse: action({
        input: () => z.object({ name: z.string() }),
        handler() {
          calls++;
          throw badRequest("name is invalid");
        },
      }),
    },
  });
  await broker.start();
  const server = (broker.getLocalService("gateway") as unknown as { server: Server }).server;
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
});
afterAll(async () => {
  await broker.stop();
  delete process.env.MAX_UPLOAD_BYTES;
});

test("the body streams to the action as bytes, whatever its media type", async () => {
  const body = Buffer.alloc(3 * 1024 * 1024 + 7, 1).map((_, i) => i % 251);
  const res = await fetch(`${url}/uploads/a.bin`, { method: "PUT", body, headers: { "content-type": "application/octet-stream" } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    name: "a.bin",
    headers: { "content-type": "application/octet-stream", "content-length": String(body.length) },
    size: body.length,
    sha256: createHash("sha256").update(body).digest("hex"),
  });
  const json = await fetch(`${url}/uploads/b.json`, { method: "PUT", body: '{"a":1}', headers: { "content-type": "application/json" } });
  expect(await json.json()).toMatchObject({ size: 7, sha256: createHash("sha256").update('{"a":1}').digest("hex") });
});

test("an action that refuses the body unread answers its error", async () => {
  const res = await fetch(`${url}/refused/x`, { method: "PUT", body: Buffer.alloc(1024 * 1024) });
  expect({ status: res.status, body: await res.json() }).toEqual({ status: 400, body: { message: "400 Bad request - name is invalid" } });
});

test("a declared length over MAX_UPLOAD_BYTES is 413 and never reaches the action", async () => {
  const before = calls;
  const res = await fetch(`${url}/uploads/big`, { method: "PUT", body: Buffer.alloc(4 * 1024 * 1024 + 1) });
  expect({ status: res.status, body: await res.json() }).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
  expect(calls).toBe(before);
});

test("a body that is form-encoded and deeply nested still reaches the action unparsed", async () => {
  const body = `headers${"[a]".repeat(2000)}=1`;
  const res = await fetch(`${url}/uploads/x`, { method: "PUT", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  expect(res.status).toBe(200);
  expect((await res.json()).size).toBe(body.length);
});

test("a body the action stops reading half-way is drained: the next request on the same connection is answered", async () => {
  const agent = new (await import("node:http")).Agent({ keepAlive: true, maxSockets: 1 });
  const { request } = await import("node:http");
  const send = (path: string, body: Buffer) =>
    new Promise<number>((resolve, reject) => {
      const r = request(`${url}${path}`, { method: "PUT", agent, headers: { "content-length": String(body.length) } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      r.setTimeout(5000, () => reject(new Error("no answer")));
      r.on("error", reject);
      r.end(body);
    });
  expect(await send("/partial/x", Buffer.alloc(600_000))).toBe(413);
  expect(await send("/uploads/y", Buffer.from("after"))).toBe(200);
  agent.destroy();
});
