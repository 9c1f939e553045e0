import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type { PGlite as Pglite } from "@electric-sql/pglite";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

type Log = (msg: string, fields?: Record<string, unknown>) => void;

export type PgliteImportResult =
  | { imported: false; reason: "no-folder" | "database-in-use" }
  | { imported: true; keptAs: string; durationMs: number; tables: number; rows: number };

/**
 * Moves the data of a PGlite folder written by an earlier Collab (PostgreSQL in WebAssembly, its
 * embedded engine then) into the PostgreSQL at `url`, in one transaction, so either everything
 * arrives or nothing does:
 *  - the schema from PGlite's pg_dump (@electric-sql/pglite-tools): `pre-data` (schemas, tables,
 *    sequences, the drizzle migrations tables too), then the rows, then `post-data` (indexes,
 *    constraints), as pg_restore orders them;
 *  - the rows table by table with COPY (text format, out of PGlite and into the server through
 *    pg-copy-streams). Not pg_dump's data: pglite-tools forces `--inserts` and then deletes every
 *    line starting with `\restrict`, which would cut such lines out of users' texts;
 *  - each sequence set to where PGlite left it.
 * The folder is then renamed `<folder>.imported-<timestamp>` and kept. Only into a database that
 * holds no data yet: otherwise the folder is left alone and the caller is told why.
 */
export async function importPgliteFolder({ folder, url, log = () => undefined }: { folder: string; url: string; log?: Log }): Promise<PgliteImportResult> {
  const source = path.resolve(folder);
  if (!fs.existsSync(path.join(source, "PG_VERSION"))) return { imported: false, reason: "no-folder" };
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    if (await holdsData(client)) {
      log("a PGlite folder from an earlier version was found but the database already holds data: not imported", { folder: source });
      return { imported: false, reason: "database-in-use" };
    }
    log("importing the PGlite folder of an earlier version into the embedded PostgreSQL", { folder: source });
    const { PGlite } = await import("@electric-sql/pglite");
    const pglite = (await PGlite.create(source)) as unknown as Pglite;
    let counts: { tables: number; rows: number };
    try {
      await client.query("BEGIN");
      counts = await copyDatabase(pglite, client);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw new Error(`importing ${source} failed, nothing was imported (the folder is left as it is): ${(err as Error).message}`);
    } finally {
      await pglite.close();
    }
    const keptAs = `${source}.imported-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "")}`;
    fs.renameSync(source, keptAs);
    const durationMs = Date.now() - started;
    log("imported the PGlite folder; the old folder is kept", { folder: source, kept_as: keptAs, duration_ms: durationMs, ...counts });
    return { imported: true, keptAs, durationMs, ...counts };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Any schema or table besides PostgreSQL's own means the database is already someone's. */
async function holdsData(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM pg_namespace WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\\_%')
          + (SELECT count(*) FROM pg_tables WHERE schemaname = 'public') AS n`,
  );
  return Number(rows[0].n) > 0;
}


async function copyDatabase(pglite: Pglite, client: pg.Client): Promise<{ tables: number; rows: number }> {
  await client.query(await dumpSection(pglite, "pre-data"));
  const tables = await pglite.query<{ name: string; columns: string }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name,
           string_agg(format('%I', a.attname), ', ' ORDER BY a.attnum) AS columns
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
    GROUP BY n.nspname, c.relname ORDER BY 1`);
  let rows = 0;
  for (const { name, columns } of tables.rows) {
    const out = await pglite.query(`COPY ${name} (${columns}) TO '/dev/blob'`);
    if (!out.blob || out.blob.size === 0) continue;
    const copy = client.query(copyFrom(`COPY ${name} (${columns}) FROM STDIN`));
    await pipeline(Readable.from([Buffer.from(await out.blob.arrayBuffer())]), copy);
    rows += copy.rowCount ?? 0;
  }
  const sequences = await pglite.query<{ name: string; last_value: string | null }>(
    "SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text FROM pg_sequences WHERE last_value IS NOT NULL",
  );
  for (const { name, last_value } of sequences.rows) await client.query("SELECT setval($1::regclass, $2::bigint, true)", [name, last_value]);
  await client.query(await dumpSection(pglite, "post-data"));
  return { tables: tables.rows.length, rows };
}

/** One section of PGlite's schema as plain SQL; owners and grants left out (PGlite's user is not this server's). */
async function dumpSection(pglite: Pglite, section: "pre-data" | "post-data"): Promise<string> {
  const { pgDump } = await import("@electric-sql/pglite-tools/pg_dump");
  // pgDump resets search_path afterwards and compares SHOW's answer with the one before; in quoted
  // form both agree, so it has nothing to warn about on the console.
  await pglite.exec(`SET search_path = '"public"'`);
  const file = await pgDump({ pg: pglite as unknown as Parameters<typeof pgDump>[0]["pg"], args: ["--no-owner", "--no-privileges", `--section=${section}`] });
  return file.text();
}
