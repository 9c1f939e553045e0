import { ApiError, badRequest } from "@collab/core";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * GitLab merges multipart/form-data fields into the params like any other body (clients such as
 * @gitbeaker/rest send PUT /users/:id that way). This connect-style middleware runs after the
 * JSON and urlencoded parsers and turns the text fields of a multipart body into `req.body`.
 * File parts are kept aside in `req.$files` (by field name); the gateway hands them only to routes
 * that declare them (RouteDef.files), so a file sent to any other route is dropped as before.
 * Field names nest as Rack parses them: `scopes[]` appends to an array, `position[base_sha]` sets a key.
 */
export function multipartFields(limitBytes: number) {
  return (req: IncomingMessage & { body?: unknown; $files?: Record<string, UploadedFile> }, _res: ServerResponse, next: (err?: unknown) => void) => {
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
        const files: Record<string, UploadedFile> = {};
        for (const [name, value] of form) {
          if (typeof value === "string") assignField(body, name, value);
          else files[name] = await uploadedFile(value);
        }
        req.body = body;
        req.$files = files;
      })
      .then(() => next(), next);
  };
}

/**
 * A file part as actions receive it: base64 keeps the bytes intact in the bus's JSON packets
 * (a Buffer would travel as an array of numbers, 3-4 times larger). The whole body is bounded by
 * MAX_BODY_BYTES, so the encoded file stays below NATS's max_payload.
 */
export interface UploadedFile {
  filename: string;
  content_type: string | null;
  size: number;
  data: string;
}

async function uploadedFile(file: File): Promise<UploadedFile> {
  const bytes = Buffer.from(await file.arrayBuffer());
  return { filename: file.name, content_type: file.type || null, size: bytes.length, data: bytes.toString("base64") };
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
