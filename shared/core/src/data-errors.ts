import type { Context, Middleware } from "moleculer";
import { badRequest } from "./errors";

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

export const DataExceptionMiddleware: Middleware = {
  name: "DataException",
  localAction(next: (ctx: Context) => Promise<unknown>, action: { name?: string }) {
    return function refuseBadData(ctx: Context) {
      return next(ctx).catch((err: unknown) => {
        const state = sqlStateOf(err);
        if (!inputFault(state)) throw err;
        // Worth a look: a params schema that should have refused this value is missing a bound.
        ctx.broker.logger.warn({ action: action.name, sqlstate: state, reason: (err as Error).message }, "input refused by the database");
        throw badRequest(REASONS[state!] ?? "Invalid value");
      });
    };
  },
};
