import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

export interface PostResult {
  status: number;
}

/**
 * POSTs JSON to `url`, connecting to `address` (the one the outbound guard checked, so a second DNS
 * answer cannot point elsewhere); the Host header and TLS name stay the URL's. Rejects on a network
 * error, when the socket stays idle for `timeoutMs`, or when `signal` aborts.
 */
export function postJson(url: string, body: unknown, target: { address: string; family: 4 | 6 }, timeoutMs: number, signal?: AbortSignal): Promise<PostResult> {
  const u = new URL(url);
  const payload = Buffer.from(JSON.stringify(body));
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
  const client = u.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      u,
      { method: "POST", lookup, timeout: timeoutMs, signal, headers: { "content-type": "application/json", "content-length": payload.length, "user-agent": "Collab/integrations" } },
      (res) => {
        res.resume(); // the body is not needed; drain it so the socket is freed
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}
