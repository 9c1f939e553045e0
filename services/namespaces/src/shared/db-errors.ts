/** The driver's error behind drizzle's DrizzleQueryError wrapper (which keeps it as `cause`). */
export function pgErrorOf(err: unknown): { code?: string; constraint?: string; message?: string } {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string") return e as { code: string; constraint?: string; message?: string };
    e = e.cause as typeof e;
  }
  return {};
}

export const isUniqueViolation = (err: unknown) => pgErrorOf(err).code === "23505";
