import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { mkdirSync } from "node:fs";
import pg from "pg";
import { NamingClient } from "./statement-naming";

// count(*) and other int8 values as numbers: ids and counts here stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export type Db = PgDatabase<PgQueryResultHKT>;

export interface DatabaseLocation {
  /** postgres://… ; when absent PGlite is embedded. */
  url?: string;
  /** PGlite data folder, or "memory://" for an in-memory database (tests). */
  dataDir?: string;
}

export interface Database {
  readonly driver: "pg" | "pglite";
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

// One connection (pool or PGlite instance) per location and process: services in the same process
// share it, which is the only safe way to share a PGlite directory (it is single-connection).
const open = new Map<string, Promise<Shared>>();

export function openDatabase(location: DatabaseLocation): Promise<Database> {
  const key = location.url ?? `pglite:${location.dataDir ?? "memory://"}`;
  let shared = open.get(key);
  if (!shared) {
    shared = (location.url ? openPostgres(location.url) : openPglite(location.dataDir ?? "memory://")).catch((err) => {
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

async function openPostgres(url: string): Promise<Shared> {
  // NamingClient: every parameterised statement is prepared once per connection (statement-naming.ts).
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10), Client: NamingClient });
  pool.on("error", () => undefined); // idle client errors surface on the next query instead
  const db = drizzlePg(pool) as unknown as Db;
  const database: Database = {
    driver: "pg",
    db,
    async migrate({ folder, table }) {
      const client = await pool.connect();
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
        client.release();
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

async function openPglite(dataDir: string): Promise<Shared> {
  const memory = dataDir.startsWith("memory://");
  // PGlite creates only the last folder of the path: a fresh checkout has no ./data yet.
  if (!memory) mkdirSync(dataDir, { recursive: true });
  const client = memory ? new PGlite() : new PGlite(dataDir);
  await client.waitReady;
  const db = drizzlePglite(client) as unknown as Db;
  // PGlite is one connection in this process: migrations of several services run one after another.
  let chain: Promise<unknown> = Promise.resolve();
  const database: Database = {
    driver: "pglite",
    db,
    migrate({ folder, table }) {
      const next = chain.then(() =>
        migratePglite(drizzlePglite(client), { migrationsFolder: folder, migrationsTable: table, migrationsSchema: "drizzle" }),
      );
      chain = next.catch(() => undefined);
      return next;
    },
    async ping() {
      await client.query("SELECT 1");
    },
    release: async () => undefined,
  };
  return { database, refs: 0, close: () => client.close() };
}
