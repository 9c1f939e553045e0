import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

export interface PostResult {
  status: number;
  /** The answer's headers (first value of each). */
  headers: Record<string, string>;
  /** The answer's body, its first `keepBodyBytes` bytes (none unless asked). */
  body: string;
}

export interface PostOptions {
  headers?: Record<string, string>;
  /** false: a TLS certificate that does not verify is accepted (a webhook's enable_ssl_verification). */
  verifyTls?: boolean;
  keepBodyBytes?: number;
  /** PUT for Matrix; POST otherwise. */
  method?: "POST" | "PUT";
}

/** A request other than a JSON POST (a build server's trigger): its method, and body with its content type. */
export interface OutboundRequest {
  method: "GET" | "POST";
  body?: { contentType: string; data: string };
}

/**
 * POSTs (or PUTs) JSON to `url`, connecting to `address` (the one the outbound guard checked, so a second DNS
 * answer cannot point elsewhere); the Host header and TLS name stay the URL's. Rejects on a network
 * error, when the socket stays idle for `timeoutMs`, or when `signal` aborts.
 */
export function postJson(url: string, body: unknown, target: { address: string; family: 4 | 6 }, timeoutMs: number, signal?: AbortSignal, opts: PostOptions = {}): Promise<PostResult> {
  return sendRequest(url, { method: "POST", body: { contentType: "application/json", data: JSON.stringify(body) } }, target, timeoutMs, signal, opts);
}

/** As postJson, for any method and body. */
export function sendRequest(url: string, request: OutboundRequest, target: { address: string; family: 4 | 6 }, timeoutMs: number, signal?: AbortSignal, opts: PostOptions = {}): Promise<PostResult> {
  const u = new URL(url);
  const payload = Buffer.from(request.body?.data ?? "");
  const lookup: LookupFunction = (_host, o, cb) => {
    if ((o as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
  const client = u.protocol === "https:" ? https : http;
  const keep = opts.keepBodyBytes ?? 0;
  const headers: Record<string, string> = { "user-agent": "Collab/integrations", ...opts.headers };
  if (request.body) Object.assign(headers, { "content-type": request.body.contentType, "content-length": String(payload.length) });
  return new Promise((resolve, reject) => {
    const req = client.request(
      u,
      { method: opts.method ?? request.method, lookup, timeout: timeoutMs, signal, headers, ...(u.protocol === "https:" ? { rejectUnauthorized: opts.verifyTls !== false } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (c: Buffer) => {
          if (kept < keep) {
            chunks.push(c.subarray(0, keep - kept));
            kept += Math.min(c.length, keep - kept);
          }
        });
        res.on("end", () => {
          const answered: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) answered[k] = Array.isArray(v) ? v[0] : v;
          resolve({ status: res.statusCode ?? 0, headers: answered, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(request.body ? payload : undefined);
  });
}
