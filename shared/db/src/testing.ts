import { sql } from "drizzle-orm";
import pg from "pg";
import type { Db } from "./database";

/** Empties every application table (all schemas but the system ones and drizzle's) and restarts sequences. */
export async function truncateAll(db: Db): Promise<void> {
  const rows = await db.execute<{ name: string }>(sql`
    SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
    WHERE schemaname NOT IN ('pg_catalog', 'information_schema', 'drizzle') AND schemaname NOT LIKE 'pg_%'`);
  const names = (rows as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
  if (names.length > 0) await db.execute(sql.raw(`TRUNCATE ${names.join(", ")} RESTART IDENTITY CASCADE`));
}

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
