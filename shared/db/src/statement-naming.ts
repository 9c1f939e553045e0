import { createHash } from "node:crypto";
import pg from "pg";

/** Statements worth preparing: data statements with parameters (utility and one-off texts are not). */
const DATA_STATEMENT = /^\s*(?:select|insert|update|delete|with)\b/i;

/** Prepared statements one connection keeps at most: a bound on the server's per-session memory. */
export const MAX_NAMED_PER_CONNECTION = 2000;

const names = new Map<string, string>();
/** A stable name per statement text (the same on every connection). */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `s_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    if (names.size < 50_000) names.set(text, name);
  }
  return name;
}

type QueryConfig = { name?: string; text?: unknown };

/**
 * A pg client that runs every parameterised data statement as a named (server-side prepared)
 * statement, keyed by its text: PostgreSQL parses and plans each distinct statement once per
 * connection instead of on every execution, which is most of its CPU for the short, repeated
 * queries a request makes. drizzle builds an unnamed query for anything not `.prepare()`d; the
 * texts it builds for one query shape are identical, so they share one statement.
 */
export class NamingClient extends pg.Client {
  private named = new Set<string>();

  // pg's overloads are many; the config object form is the one drizzle uses.
  override query(...args: unknown[]): never {
    const [config, values] = args as [QueryConfig | string, unknown[] | undefined];
    if (config !== null && typeof config === "object" && config.name === undefined && typeof config.text === "string" && Array.isArray(values) && values.length > 0 && DATA_STATEMENT.test(config.text)) {
      const name = statementName(config.text);
      if (this.named.has(name) || this.named.size < MAX_NAMED_PER_CONNECTION) {
        this.named.add(name);
        args[0] = { ...config, name };
      }
    }
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (err: unknown, result: unknown) => {
        if (err) this.abandonIfTimedOut(err);
        (last as (e: unknown, r: unknown) => void)(err, result);
      };
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) result.catch((err: unknown) => this.abandonIfTimedOut(err));
    return result as never;
  }

  /**
   * pg's client-side read timeout (query_timeout) answers the caller but leaves the connection as
   * it is: on a half-open socket (a frozen proxy, a failover) every later query would queue
   * behind the lost one forever. The connection is closed instead, so the pool drops it on release.
   */
  private abandonIfTimedOut(err: unknown) {
    if ((err as Error)?.message !== READ_TIMEOUT) return;
    (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
}

/** The error pg raises when a query_timeout expires. */
export const READ_TIMEOUT = "Query read timeout";
