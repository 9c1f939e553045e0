/**
 * Raw HTTP for the fuzz test: node:http with the path sent exactly as built (fetch would normalise
 * `%2e%2e` and refuse some bytes), a keep-alive agent and a timeout that turns a hang into an answer.
 */
import http from "node:http";

export interface RawRequest {
  method: string;
  /** Path and query, already percent-encoded, from the server root (e.g. /api/v4/projects/1?x=%00). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  contentType: string;
  text: string;
  /** Set when no HTTP answer came (timeout, reset); status is then 0. */
  error?: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

export function closeAgent() {
  agent.destroy();
}

export function send(baseUrl: string, req: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<RawResponse, "ms">) => {
      if (done) return;
      done = true;
      resolve({ ...r, ms: Date.now() - started });
    };
    let r: http.ClientRequest;
    try {
      r = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.target,
          headers: { ...req.headers, ...(req.body ? { "Content-Length": String(req.body.length) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => finish({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", (err) => finish({ status: 0, contentType: "", text: "", error: `response error: ${err.message}` }));
        },
      );
    } catch (err) {
      finish({ status: 0, contentType: "", text: "", error: `client refused to send: ${(err as Error).message}` });
      return;
    }
    r.setTimeout(timeoutMs, () => {
      finish({ status: 0, contentType: "", text: "", error: `no answer within ${timeoutMs} ms` });
      r.destroy();
    });
    r.on("error", (err) => finish({ status: 0, contentType: "", text: "", error: `request error: ${err.message}` }));
    if (req.body) r.end(req.body);
    else r.end();
  });
}
