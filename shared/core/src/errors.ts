import { Errors } from "moleculer";

/**
 * An error that already knows its GitLab answer: HTTP status and exact body.
 * The body travels in `data.body` so it survives serialization over the bus
 * (remote errors are recreated as plain MoleculerErrors, so `instanceof` is useless there).
 */
export type ErrorBody = Record<string, unknown>;

export class ApiError extends Errors.MoleculerError {
  constructor(status: number, body: ErrorBody, type = "API_ERROR", extra: Record<string, unknown> = {}) {
    const text = typeof body.message === "string" ? body.message : typeof body.error === "string" ? body.error : JSON.stringify(body);
    super(text, status, type, { ...extra, body });
  }
}

/**
 * Grape-style parameter error: 400 {"error": "title is missing"}. `outOfRange` names the params
 * that were well-formed integers no column holds: the gateway answers 404 when one of them is a
 * path segment (the record cannot exist), as GitLab does.
 */
export const paramError = (message: string, outOfRange: string[] = []) =>
  new ApiError(400, { error: message }, "PARAM_ERROR", outOfRange.length > 0 ? { outOfRange } : {});

/** The params a paramError marked out of range (see paramError), read from a local or remote error. */
export function outOfRangeParams(err: unknown): string[] {
  const names = (err as { data?: { outOfRange?: unknown } } | null)?.data?.outOfRange;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
}
/** `bad_request!`: 400 {"message": "400 Bad request - <reason>"}. */
export const badRequest = (reason?: string) =>
  new ApiError(400, { message: reason ? `400 Bad request - ${reason}` : "400 Bad request" }, "BAD_REQUEST");
/** `render_validation_error!`: 400 {"message": {"field": ["msg"]}}. */
export const validationFailed = (errors: Record<string, string[]>) => new ApiError(400, { message: errors }, "VALIDATION_FAILED");
/** 400 with a free-form message body, as several GitLab services answer. */
export const badRequestMessage = (message: unknown) => new ApiError(400, { message }, "BAD_REQUEST");
export const unauthorized = (reason?: string) =>
  new ApiError(401, { message: reason ? `401 Unauthorized - ${reason}` : "401 Unauthorized" }, "UNAUTHORIZED");
export const forbidden = (reason?: string) =>
  new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : "403 Forbidden" }, "FORBIDDEN");
/** `not_found!("Project")`: 404 {"message": "404 Project Not Found"}. */
export const notFound = (thing?: string) =>
  new ApiError(404, { message: thing ? `404 ${thing} Not Found` : "404 Not Found" }, "NOT_FOUND");
/** ActiveRecord::RecordNotFound: note the lower-case "found". */
/** A route that does not exist (Grape's catch-all), e.g. a licensed feature on a lower tier. */
export const routeNotFound = () => new ApiError(404, { error: "404 Not Found" }, "NOT_FOUND");
export const recordNotFound = () => new ApiError(404, { message: "404 Not found" }, "NOT_FOUND");
/** `not_allowed!`: 405 {"message": "405 Method Not Allowed"}. */
export const notAllowed = () => new ApiError(405, { message: "405 Method Not Allowed" }, "NOT_ALLOWED");
export const conflict = (message: unknown = "409 Conflict") => new ApiError(409, { message }, "CONFLICT");
export const unprocessable = (message: unknown = "422 Unprocessable Entity") => new ApiError(422, { message }, "UNPROCESSABLE");
/** `not_modified!`: 304, body dropped. */
export const notModified = () => new ApiError(304, { message: "304 Not Modified" }, "NOT_MODIFIED");
export const tooManyRequests = () =>
  new ApiError(429, { message: { error: "This endpoint has been requested too many times. Try again later." } }, "RATE_LIMITED");

export const insufficientScope = (acceptable: readonly string[]) =>
  new ApiError(
    403,
    {
      error: "insufficient_scope",
      error_description: "The request requires higher privileges than provided by the access token.",
      scope: acceptable.join(" "),
    },
    "INSUFFICIENT_SCOPE",
  );

export const invalidToken = (description: string) =>
  new ApiError(401, { error: "invalid_token", error_description: description }, "INVALID_TOKEN");

/** Reads the GitLab body of any error, local or recreated from the bus. */
export function errorBodyOf(err: unknown): { status: number; body: ErrorBody } | undefined {
  const e = err as { code?: unknown; data?: { body?: unknown } };
  if (e && typeof e.code === "number" && e.data && typeof e.data.body === "object" && e.data.body !== null) {
    return { status: e.code, body: e.data.body as ErrorBody };
  }
  return undefined;
}

/**
 * A call that failed without a GitLab answer (a timeout, a service down or unreachable, an error
 * the service did not turn into an answer, a 503 because its database or settings are not there
 * yet), as opposed to a refusal (an ApiError: 404, 400…). Background work repeats such a step
 * later and never fails or finishes a job because of one.
 */
export const isUnanswered = (err: unknown): boolean => {
  const known = errorBodyOf(err);
  return known === undefined || known.status >= 500;
};
