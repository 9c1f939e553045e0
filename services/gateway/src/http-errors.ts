import { errorBodyOf, UNAVAILABLE_RETRY_AFTER_S, type ErrorBody } from "@collab/core";

/**
 * Headers that go with an error answer: a 503 (a service or the database not available, a
 * timeout) tells the client when to try again.
 */
export function errorHeaders(status: number): Record<string, string> {
  return status === 503 ? { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) } : {};
}

/**
 * Maps any error reaching the gateway to GitLab's status and body — the one place where that
 * happens, like the rescue_from list of GitLab's api.rb. Unknown errors never leak details.
 */
export function toHttpError(err: unknown): { status: number; body: ErrorBody | null; internal: boolean } {
  const known = errorBodyOf(err);
  if (known) return { status: known.status, body: known.status === 304 ? null : known.body, internal: false };

  // Whatever was thrown (even null or a string), the error handler itself must not throw.
  const e = (typeof err === "object" && err !== null ? err : {}) as { code?: unknown; type?: string; name?: string; message?: string; status?: number };
  const code = typeof e.code === "number" ? e.code : typeof e.status === "number" ? e.status : 500;
  switch (e.name) {
    case "NotFoundError": // moleculer-web: no alias matched
    case "ServiceNotFoundError":
      return { status: 404, body: { error: "404 Not Found" }, internal: false };
    case "ServiceNotAvailableError":
    case "ServiceUnavailableError":
      return { status: 503, body: { message: "503 Service Unavailable" }, internal: false };
    case "RequestTimeoutError":
      return { status: 503, body: { message: "503 Service Unavailable" }, internal: true };
    case "ValidationError":
      return { status: 400, body: { error: e.message ?? "400 Bad request" }, internal: false };
    case "PayloadTooLarge":
      return { status: 413, body: { message: "413 Request Entity Too Large" }, internal: false };
    case "RateLimitExceeded":
      return { status: 429, body: { message: "429 Too Many Requests" }, internal: false };
  }
  // Body parsing errors are answered where the parsers run (body-parsers.ts); a 413 may still come
  // from a stream that crossed the bus.
  if (code === 413) return { status: 413, body: { message: "413 Request Entity Too Large" }, internal: false };
  // moleculer-web's path param it could not decode (the request guard refuses those first).
  if (e.name === "BadRequestError") return { status: 400, body: { message: "400 Bad request" }, internal: false };
  return { status: 500, body: { message: "500 Internal Server Error" }, internal: true };
}
