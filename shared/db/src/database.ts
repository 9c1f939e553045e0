import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { loadConfig, type Config } from "@collab/core";
import pg from "pg";
import { NamingClient } from "./statement-naming";

// count(*) and other int8 values as numbers: ids and counts here stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export type Db = PgDatabase<PgQueryResultHKT>;

export interface Database {
  readonly db: Db;
  /** Applies a service's migrations under the migrations advisory lock, in the service's own migrations table. */
  migrate(opts: { folder: string; table: string }): Promise<void>;
  ping(): Promise<void>;
  /** Drops this user's reference; the connection closes when the last user releases it. */
  release(): Promise<void>;
}

interface Shared {
  database: Database;
  refs: number;
  close(): Promise<void>;
}

// One pool per database URL and process: services in the same process share it.
const open = new Map<string, Promise<Shared>>();

/** A reference to the pool of `url` (PostgreSQL), opened on first use and closed with its last release. */
export function openDatabase(url: string | undefined): Promise<Database> {
  if (!url) {
    return Promise.reject(new Error("DATABASE_URL is not set: a service started on its own needs a PostgreSQL server (npm start runs an embedded one)"));
  }
  const key = url;
  let shared = open.get(key);
  if (!shared) {
    shared = openPostgres(url).catch((err) => {
      open.delete(key);
      throw err;
    });
    open.set(key, shared);
  }
  return shared.then((s) => {
    s.refs += 1;
    let released = false;
    return {
      ...s.database,
      release: async () => {
        if (released) return;
        released = true;
        s.refs -= 1;
        if (s.refs === 0) {
          open.delete(key);
          await s.close();
        }
      },
    };
  });
}

/** Connection settings of every pool and client (config: PG_*_MS), so a dead server or socket fails fast. */
export function connectionOptions(config: Config = loadConfig()): pg.ClientConfig {
  const optional = (ms: number) => (ms > 0 ? ms : undefined);
  return {
    connectionTimeoutMillis: config.PG_CONNECT_TIMEOUT_MS,
    statement_timeout: optional(config.PG_STATEMENT_TIMEOUT_MS),
    query_timeout: optional(config.PG_QUERY_TIMEOUT_MS),
    idle_in_transaction_session_timeout: optional(config.PG_IDLE_IN_TRANSACTION_TIMEOUT_MS),
    keepAlive: config.PG_KEEPALIVE_DELAY_MS > 0,
    keepAliveInitialDelayMillis: config.PG_KEEPALIVE_DELAY_MS,
  };
}

/**
 * A client's errors (its server gone, a backend terminated) also reach its 'error' event; without
 * a listener that is an uncaught exception. The pool listens only while a client is idle; this
 * listens for its whole life: the query that was running fails on its own, and the pool drops
 * the broken client when it is released.
 */
const ignoreClientError = (client: pg.Client) => void client.on("error", () => undefined);

async function openPostgres(url: string): Promise<Shared> {
  const options = connectionOptions();
  // NamingClient: every parameterised statement is prepared once per connection (statement-naming.ts).
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10), Client: NamingClient, ...options });
  pool.on("error", () => undefined); // idle client errors surface on the next query instead
  pool.on("connect", ignoreClientError);
  const db = drizzlePg(pool) as unknown as Db;
  const database: Database = {
    db,
    async migrate({ folder, table }) {
      // A client of its own, without statement or read timeouts: a migration may rewrite a big
      // table, and the lock below waits for the other processes' migrations.
      const client = new pg.Client({ connectionString: url, ...options, statement_timeout: undefined, query_timeout: undefined });
      ignoreClientError(client);
      await client.connect();
      try {
        // One lock for every service: they share the "drizzle" schema their migration tables
        // live in, and creating it concurrently races even with IF NOT EXISTS.
        await client.query("SELECT pg_advisory_lock(hashtext('collab.migrations'))");
        try {
          await migratePg(drizzlePg(client), { migrationsFolder: folder, migrationsTable: table, migrationsSchema: "drizzle" });
        } finally {
          await client.query("SELECT pg_advisory_unlock(hashtext('collab.migrations'))");
        }
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async ping() {
      await pool.query("SELECT 1");
    },
    release: async () => undefined,
  };
  await database.ping();
  return { database, refs: 0, close: () => pool.end() };
}
