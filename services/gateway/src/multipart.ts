import { ApiError, badRequest } from "@collab/core";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * GitLab merges multipart/form-data fields into the params like any other body (clients such as
 * @gitbeaker/rest send PUT /users/:id that way). This connect-style middleware runs after the
 * JSON and urlencoded parsers and turns the text fields of a multipart body into `req.body`;
 * files are dropped, since no mounted route stores uploads. Field names nest as Rack parses them:
 * `scopes[]` appends to an array, `position[base_sha]` sets a key.
 */
export function multipartFields(limitBytes: number) {
  return (req: IncomingMessage & { body?: unknown }, _res: ServerResponse, next: (err?: unknown) => void) => {
    const type = req.headers["content-type"] ?? "";
    if (!/^multipart\/form-data/i.test(type)) return next();
    readBody(req, limitBytes)
      .then(async (raw) => {
        let form: FormData;
        try {
          form = await new Response(raw, { headers: { "content-type": type } }).formData();
        } catch {
          throw badRequest("Invalid request body");
        }
        const body: Record<string, unknown> = {};
        for (const [name, value] of form) if (typeof value === "string") assignField(body, name, value);
        req.body = body;
      })
      .then(() => next(), next);
  };
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(new ApiError(413, { message: "413 Request Entity Too Large" }, "PAYLOAD_TOO_LARGE"));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

type Container = Record<string, unknown> | unknown[];
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Sets `name`, `name[]`, `name[a][b]` or `name[][k]` in `target` as Rack does: `[]` appends, and
 * `name[][k]` adds to the last element unless it already has `k`. A malformed name is a plain key.
 */
export function assignField(target: Record<string, unknown>, name: string, value: string) {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  const keys = match ? [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])] : [name];
  if (keys.some((k) => UNSAFE_KEYS.has(k))) return;
  let node: Container = target;
  for (let i = 0; i < keys.length; i++) {
    const last = i === keys.length - 1;
    const next = keys[i + 1];
    const fresh = (): Container => (next === "" ? [] : {});
    if (Array.isArray(node)) {
      if (last) {
        node.push(value);
        return;
      }
      const tail: unknown = node[node.length - 1];
      const reusable: boolean = next !== "" && typeof tail === "object" && tail !== null && !Array.isArray(tail) && !(next in tail);
      const child: Container = reusable ? (tail as Record<string, unknown>) : fresh();
      if (!reusable) node.push(child);
      node = child;
      continue;
    }
    const key = keys[i];
    if (last) {
      node[key] = value;
      return;
    }
    const existing: unknown = node[key];
    node = typeof existing === "object" && existing !== null ? (existing as Container) : (node[key] = fresh());
  }
}
