import { sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database, type Db } from "./database";
import { startEmbeddedPostgres } from "./embedded/server";

const DEADLOCK = "40P01";
const causeCode = (err: unknown): string | undefined => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
};

/**
 * Waits (up to `timeoutMs`) until no service's outbox holds an event still on its way: a request
 * answers before its events are applied, and the previous test's would otherwise land in the next
 * one's fresh data. Events that already failed (backing off) do not count.
 */
export async function settleOutboxes(db: Db, timeoutMs = 10_000): Promise<void> {
  const rows = await db.execute<{ name: string }>(sql`SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE tablename = 'outbox' ORDER BY 1`);
  const names = (rows as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
  if (names.length === 0) return;
  const pending = sql.raw(`SELECT ${names.map((n) => `(SELECT count(*) FROM ${n} WHERE attempts = 0)`).join(" + ")} AS n`);
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const result = (await db.execute<{ n: string | number }>(pending)) as unknown as { rows: { n: string | number }[] };
    if (Number(result.rows[0].n) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Empties every application table (all schemas but the system ones and drizzle's) and restarts
 * sequences. The previous test's bus events may still be applying (a project's removal clears
 * its issues and pipelines in other services), and their transactions can deadlock with the
 * TRUNCATE's table locks: PostgreSQL aborts one side, so the TRUNCATE is simply tried again
 * (event handlers retry on their own).
 */
export async function truncateAll(db: Db): Promise<void> {
  const names = await applicationTables(db);
  if (names.length === 0) return;
  // TRUNCATE costs per table (new files for it and its indexes): a test touches a few of ~150
  // tables, so only those holding rows are emptied, and the sequences used are restarted.
  const nonEmpty = rowsOf<{ name: string }>(await db.execute(sql.raw(names.map((n) => `SELECT '${n}' AS name WHERE EXISTS (SELECT 1 FROM ${n})`).join(" UNION ALL "))));
  for (let attempt = 1; nonEmpty.length; attempt++) {
    try {
      await db.execute(sql.raw(`TRUNCATE ${nonEmpty.map((r) => r.name).join(", ")} RESTART IDENTITY CASCADE`));
      break;
    } catch (err) {
      if (causeCode(err) !== DEADLOCK || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
  // Sequences of tables that are empty again (rows inserted, then deleted) or of no table.
  await db.execute(sql`
    SELECT setval(format('%I.%I', schemaname, sequencename), start_value, false) FROM pg_sequences
    WHERE last_value IS NOT NULL AND schemaname NOT IN ('pg_catalog', 'information_schema', 'drizzle') AND schemaname NOT LIKE 'pg_%'`);
}

const tablesOf = new WeakMap<Db, Promise<string[]>>();

/** The application's tables (all schemas but the system ones and drizzle's), read once per handle: tests never add tables. */
function applicationTables(db: Db): Promise<string[]> {
  let names = tablesOf.get(db);
  if (!names) {
    names = db
      .execute<{ name: string }>(
        sql`SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
            WHERE schemaname NOT IN ('pg_catalog', 'information_schema', 'drizzle') AND schemaname NOT LIKE 'pg_%'
            ORDER BY 1`,
      )
      .then((rows) => rowsOf<{ name: string }>(rows).map((r) => r.name));
    tablesOf.set(db, names);
    names.catch(() => tablesOf.delete(db));
  }
  return names;
}

const rowsOf = <R>(result: unknown): R[] => (result as { rows: R[] }).rows;

/**
 * A fresh database on a PostgreSQL server for one test file, so parallel jest workers never
 * share state. Returns its URL and a function that drops it.
 */
export async function createScratchDatabase(serverUrl: string, label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `collab_${label.replace(/[^a-z0-9]+/gi, "_").toLowerCase()}_${process.pid}_${Date.now().toString(36)}`.slice(0, 63);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * The suite's PostgreSQL: the embedded server (as `npm start` runs it) in a temp folder, with
 * durability off (a throw-away cluster) and room for a whole distributed topology's pools. jest's
 * global setup starts one per run and hands its URL to the workers as TEST_DATABASE_SERVER.
 */
export async function startTestDatabaseServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "collab-test-pg-"));
  try {
    const server = await startEmbeddedPostgres({ dir, durable: false, database: "postgres", settings: { max_connections: 400 } });
    return {
      url: server.url,
      async stop() {
        await server.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** TEST_DATABASE_SERVER, or a message saying how tests get one. */
export function testDatabaseServer(): string {
  const url = process.env.TEST_DATABASE_SERVER;
  if (!url) throw new Error("TEST_DATABASE_SERVER is not set: run tests through jest (its global setup starts PostgreSQL) or npm test");
  return url;
}

/** A scratch database for one test file (unit tests of finders, consumers…), dropped by dispose(). */
export async function openScratchDatabase(label: string): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const scratch = await createScratchDatabase(testDatabaseServer(), label);
  const database = await openDatabase(scratch.url);
  return {
    database,
    async dispose() {
      await database.release();
      await scratch.drop();
    },
  };
}
