import { ApiError } from "@collab/core";
import bodyParser from "body-parser";
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodes, payloadTooLarge } from "./request-guard";

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** JSON media types the gateway reads as JSON (the request guard refuses other body types). */
export const JSON_BODY_TYPES = ["application/json", "application/*+json"];

/**
 * body-parser's JSON and form parsers, with their errors answered as GitLab does. Mounted as route
 * middlewares instead of moleculer-web's `bodyParsers`, whose wrapper turns a parser error into a
 * MoleculerError carrying zlib's string code (a truncated gzip body) or losing the status (a form
 * nested too deeply), which would surface as 500s.
 */
export function bodyParsers(limitBytes: number): Middleware[] {
  const parsers = [
    bodyParser.json({ limit: limitBytes, strict: false, type: JSON_BODY_TYPES, verify: refuseInvalidUtf8 }),
    bodyParser.urlencoded({ extended: true, limit: limitBytes, verify: refuseUndecodableForm }),
  ].map((parse): Middleware => (req, res, next) => parse(req, res, (err?: unknown) => next(err === undefined ? undefined : bodyError(err))));
  return [parsers[0], paramsFromObjectsOnly, parsers[1]];
}

/**
 * A UTF-8 body must be UTF-8, as Ruby's JSON parser and Rack require: body-parser would decode
 * invalid bytes (what a Latin-1 client sends as é) to U+FFFD, so the stored text would differ from
 * the text sent with nothing said. Thrown errors become 400 "Invalid request body" (bodyError).
 */
function refuseInvalidUtf8(_req: IncomingMessage, _res: ServerResponse, body: Buffer, encoding: string | null) {
  if (encoding === "utf-8" && !isUtf8(body)) throw new Error("body is not valid UTF-8");
}

/**
 * A UTF-8 form must also decode, as Rack requires (the gateway answers a query string the same
 * way): qs would keep a %-escape that is no UTF-8 (`%ff`, a lone surrogate's `%ed%a0%80`) or no
 * escape at all (`%zz`, a bare `%`) as its literal text.
 */
function refuseUndecodableForm(req: IncomingMessage, res: ServerResponse, body: Buffer, encoding: string | null) {
  refuseInvalidUtf8(req, res, body, encoding);
  if (encoding === "utf-8" && decodes(body.toString("utf8").replace(/\+/g, " ")) === undefined) throw new Error("form does not decode");
}

/**
 * Grape takes params only from a JSON object: a JSON body that is null, an array or a scalar
 * carries none (a route needing params then answers "… is missing", as GitLab does), rather than
 * moleculer-web merging an array's indexes as params "0", "1"….
 */
const paramsFromObjectsOnly: Middleware = (req, _res, next) => {
  const r = req as IncomingMessage & { body?: unknown };
  if (r.body !== undefined && (typeof r.body !== "object" || r.body === null || Array.isArray(r.body))) r.body = {};
  next();
};

/**
 * The body as bytes for the routes that declare `rawBody` (their own route block), inflated from
 * its Content-Encoding and bounded by the limit. Kept in `req.$rawBody`, not `req.body`, which
 * moleculer-web would merge into the params key by key.
 */
export function rawBodyReader(limitBytes: number): Middleware {
  const parse = bodyParser.raw({ limit: limitBytes, type: () => true });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err !== undefined) return next(bodyError(err));
      const r = req as IncomingMessage & { body?: unknown; $rawBody?: Buffer };
      r.$rawBody = Buffer.isBuffer(r.body) ? r.body : Buffer.alloc(0);
      r.body = {};
      next();
    });
}

/**
 * For streamed uploads (RouteDef.streamBody): a declared Content-Length over the limit is 413
 * before anything is read. The body itself is left untouched (a listener here would start it
 * flowing before the action reads it): the action counts what arrives against its own limit.
 */
export function uploadLimit(limitBytes: number): Middleware {
  return (req, _res, next) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (!(declared > limitBytes)) return next();
    req.resume();
    next(payloadTooLarge());
  };
}

/** A body-parser error as GitLab's answer: 413 over the limit, else 400 (unreadable, undecodable, too deep, too many params). */
export function bodyError(err: unknown): ApiError {
  const status = (err as { status?: unknown }).status;
  if (status === 413) return payloadTooLarge();
  return new ApiError(400, { message: "400 Bad request - Invalid request body" }, "INVALID_BODY");
}
