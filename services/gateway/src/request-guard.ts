import { ApiError, badRequest, notFound, outOfRangeParams, paramError, type RouteDef } from "@collab/core";
import type { IncomingMessage } from "node:http";

/**
 * Malformed requests are refused here, before any action runs, so that every route — present and
 * future — inherits the same answers (GitLab's HandleMalformedStrings middleware, Grape's
 * content-type check and its type coercion):
 *
 * - a URL over MAX_URL_BYTES: 414; a path or query string that does not decode as UTF-8, or a
 *   path with a NUL byte: 400;
 * - a NUL byte or an unpaired surrogate in any param (query, JSON, form or multipart body): 400
 *   `{"error":"<param> is invalid"}` — PostgreSQL cannot store either;
 * - params nested deeper than MAX_PARAM_DEPTH (a JSON body 20,000 levels deep): 400 the same way,
 *   before such a message is serialized onto the bus;
 * - a body whose media type is not JSON, form or multipart: 415 (except on `rawBody` and `streamBody` routes, which
 *   take any body as bytes);
 * - params larger than the body limit once encoded for the bus: 413 (see oversizedParams).
 */
export const MAX_PARAM_DEPTH = 32;

/** Media types whose bodies the gateway parses into params; any other non-empty body is refused. */
const PARSED_BODY_TYPES = [/^application\/json$/, /^application\/[\w.+-]+\+json$/, /^application\/x-www-form-urlencoded$/, /^multipart\/form-data$/];

/** An unpaired UTF-16 surrogate: what an invalid UTF-8 sequence or a stray `\ud800` escape leaves. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const badString = (s: string) => s.includes("\0") || LONE_SURROGATE.test(s);

/** The %-decoded text, or undefined when an escape is invalid or decodes to no UTF-8. */
export const decodes = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined; // invalid %-escape or invalid UTF-8
  }
};

/** Longest URL served; GitLab's front end (nginx's 8 KiB header buffers) answers 414 earlier still. */
export const MAX_URL_BYTES = 16 * 1024;

/** 414 for an over-long URL, 400 for a request line no route should see; undefined when the URL is fine. */
export function malformedUrl(url: string): ApiError | undefined {
  if (url.length > MAX_URL_BYTES) return new ApiError(414, { message: "414 Request-URI Too Large" }, "URI_TOO_LONG");
  const cut = url.indexOf("?");
  const path = decodes(cut < 0 ? url : url.slice(0, cut));
  if (path === undefined || badString(path)) return badRequest("Malformed path");
  if (cut >= 0 && decodes(url.slice(cut + 1).replace(/\+/g, " ")) === undefined) return badRequest("Malformed query string");
  return undefined;
}

/**
 * The first top-level param holding a string PostgreSQL cannot store or nested too deeply, walked
 * without recursion so that no depth of input can overflow the stack.
 */
export function malformedParam(params: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(params)) {
    if (badString(name)) return name.replace(/\0/g, "\\0");
    const stack: [unknown, number][] = [[value, 1]];
    while (stack.length > 0) {
      const [v, depth] = stack.pop()!;
      if (typeof v === "string") {
        if (badString(v)) return name;
      } else if (typeof v === "object" && v !== null) {
        if (depth > MAX_PARAM_DEPTH) return name;
        for (const [k, child] of Object.entries(v)) {
          if (badString(k)) return name;
          stack.push([child, depth + 1]);
        }
      }
    }
  }
  return undefined;
}

const hasBody = (req: IncomingMessage) => Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;

/** Grape's answer to a body it has no parser for: 415 with the media type it was given. */
export function unsupportedBody(req: IncomingMessage): ApiError | undefined {
  if (!hasBody(req)) return undefined;
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (PARSED_BODY_TYPES.some((re) => re.test(type))) return undefined;
  return new ApiError(415, { error: `The provided content-type '${type}' is not supported.` }, "UNSUPPORTED_MEDIA_TYPE");
}

/**
 * How much larger decoded params can be in JSON than the request that carried them: a raw control
 * byte in a form or multipart field becomes a six-byte `\u0001` escape (`%01` twice its size). A
 * JSON body never grows: its own escapes are as long as those JSON.stringify writes.
 */
const MAX_PARAM_GROWTH = 6;

/**
 * Whether the params, as JSON (the form every action call takes between processes), exceed
 * `limitBytes`. Over NATS's max_payload the call itself would fail (a 500 in the distributed mode
 * only), so the gateway holds decoded params to the body limit in every mode. Measured only when
 * the request (its URL and declared body length; unknown when chunked) could get there.
 */
export function oversizedParams(req: IncomingMessage, params: Record<string, unknown>, limitBytes: number): boolean {
  const body = req.headers["transfer-encoding"] !== undefined ? Number.NaN : Number(req.headers["content-length"] ?? 0);
  const declared = (req.url?.length ?? 0) + body;
  if (declared * MAX_PARAM_GROWTH <= limitBytes) return false;
  return Buffer.byteLength(JSON.stringify(params)) > limitBytes;
}

export const payloadTooLarge = () => new ApiError(413, { message: "413 Request Entity Too Large" }, "PAYLOAD_TOO_LARGE");

/**
 * Everything checked once the route is known and the body parsed: throws the first refusal.
 * `maxParamBytes` bounds the decoded params (the gateway passes MAX_BODY_BYTES); files and raw
 * bodies join the params later, bounded by the body limit themselves.
 */
export function guardRequest(req: IncomingMessage, params: Record<string, unknown>, opts: { def?: RouteDef; maxParamBytes: number }) {
  const { def } = opts;
  const unsupported = def?.rawBody || def?.streamBody ? undefined : unsupportedBody(req);
  if (unsupported) throw unsupported;
  const bad = malformedParam(params);
  if (bad !== undefined) throw paramError(`${bad} is invalid`);
  if (oversizedParams(req, params, opts.maxParamBytes)) throw payloadTooLarge();
}

/** "pipeline_schedules" → "Pipeline Schedule": the name GitLab's not_found! gives a collection's record. */
const recordName = (collection: string) =>
  collection
    .replace(/ies$/, "y")
    .replace(/s$/, "")
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");

/**
 * A well-formed integer too large for any id column names no record: GitLab looks it up and finds
 * nothing. In the URL path that is a 404 naming the record (`/users/2147483648`: "404 User Not
 * Found"); in a query or body it stays the service's 400.
 */
export function notFoundForPathParam(err: unknown, def: RouteDef | undefined): ApiError | undefined {
  if (!def) return undefined;
  const segments = def.path.split("/");
  for (const name of outOfRangeParams(err)) {
    const at = segments.indexOf(`:${name}`);
    if (at < 0) continue;
    const collection = segments[at - 1];
    const thing = collection && !collection.startsWith(":") ? recordName(collection) : undefined;
    return notFound(thing);
  }
  return undefined;
}
