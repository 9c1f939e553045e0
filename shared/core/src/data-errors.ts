import type { Context, Middleware } from "moleculer";
import { ApiError, badRequest } from "./errors";

/**
 * SQLSTATEs that blame the request's data, not the server: class 22 (data exception: NUL in text,
 * a number or date out of range, an invalid byte sequence) and 54000 (a value too long for an
 * index). The params helpers and the gateway refuse such input first; this is the net below them,
 * so that a value nobody thought of becomes a 400 and a rolled-back transaction, never a 500.
 */
const REASONS: Record<string, string> = {
  "22001": "Value is too long",
  "22003": "Value is out of range",
  "22008": "Date is out of range",
  "54000": "Value is too long",
};

/** The driver's error (pg's) behind drizzle's DrizzleQueryError wrapper, which keeps it as `cause`. */
export function pgErrorOf(err: unknown): { code?: string; constraint?: string; message?: string } {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e as { code: string; constraint?: string; message?: string };
  }
  return {};
}

/** The SQLSTATE of a database error, local or wrapped. */
export const sqlStateOf = (err: unknown): string | undefined => pgErrorOf(err).code;

export const isUniqueViolation = (err: unknown) => sqlStateOf(err) === "23505";

export const inputFault = (state: string | undefined) => state !== undefined && (state.startsWith("22") || state === "54000");

/**
 * The database cannot answer now (down, restarting, refusing connections, out of connections, a
 * socket gone or frozen, a statement that timed out): nothing is wrong with the request, it can
 * be sent again later. SQLSTATE class 08 (connection exception), 57P01–57P03 (shutdown, crash,
 * not accepting connections yet), 53300 (too many connections), 57014 (statement timeout) and
 * 25P03 (idle-in-transaction timeout); the driver's own socket and timeout errors.
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300", "57014", "25P03"]);
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable|Connection ended unexpectedly)|is not currently accepting connections/;

/** Why the database could not answer (the driver's code or message), or undefined if it could. */
export function databaseUnavailable(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && typeof e === "object" && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && (e.code.startsWith("08") || UNAVAILABLE_STATES.has(e.code) || UNAVAILABLE_CODES.has(e.code))) return e.code;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return e.message;
  }
  return undefined;
}

/** Seconds a client is asked to wait before sending a request the database could not serve again. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** 503 {"message":"503 Service Unavailable"}, with the Retry-After the gateway sends. */
export const serviceUnavailable = () =>
  new ApiError(503, { message: "503 Service Unavailable" }, "SERVICE_UNAVAILABLE", { retryAfter: UNAVAILABLE_RETRY_AFTER_S });

/**
 * Database errors that are not the server's fault, turned into their HTTP answer in every
 * service: bad data (class 22, 54000) is a 400, an unavailable database a 503.
 */
export const DataExceptionMiddleware: Middleware = {
  name: "DataException",
  localAction(next: (ctx: Context) => Promise<unknown>, action: { name?: string }) {
    return function refuseBadData(ctx: Context) {
      return next(ctx).catch((err: unknown) => {
        const unavailable = databaseUnavailable(err);
        if (unavailable) {
          ctx.broker.logger.warn({ action: action.name, reason: unavailable }, "database unavailable");
          throw serviceUnavailable();
        }
        const state = sqlStateOf(err);
        if (!inputFault(state)) throw err;
        // Worth a look: a params schema that should have refused this value is missing a bound.
        ctx.broker.logger.warn({ action: action.name, sqlstate: state, reason: (err as Error).message }, "input refused by the database");
        throw badRequest(REASONS[state!] ?? "Invalid value");
      });
    };
  },
};
