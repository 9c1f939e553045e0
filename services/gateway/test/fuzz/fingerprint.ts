/**
 * A fingerprint of every table of every service schema: md5 of each table's rows (as jsonb text,
 * volatile columns removed). Two equal fingerprints mean no row changed.
 */
import { settleOutboxes, type Database } from "@collab/db";
import { sql } from "drizzle-orm";

/** The schemas the services own (a table in any other schema is not theirs). */
export const SERVICE_SCHEMAS = ["accounts", "namespaces", "issues", "merge_requests", "admin", "runners", "import_export", "error_tracking", "integrations", "activity", "packages", "snippets"];

/**
 * What reads legitimately touch, left out of the fingerprint: whole tables (`schema.table`) and
 * columns (`schema.table.column`, or `*.column` in every table).
 */
export const VOLATILE = {
  tables: new Set<string>(["admin.rate_limit_counters"]),
  columns: ["*.last_used_at", ...jobColumns()],
};

/**
 * The columns import/export workers write on their timer (distributed mode runs them), seconds
 * after the request that queued the job answered (a finished export also expires a week later
 * again): a refused request must not be blamed for a job
 * an accepted one queued. A job's row (its id and what it was asked) still counts.
 */
function jobColumns(): string[] {
  const worker = ["state", "status", "attempts", "retries", "archive", "archive_size", "file", "file_size", "filename", "error_message", "progress", "statistics", "updated_at", "started_at", "finished_at", "expires_at"];
  const tables = ["import_export.group_exports", "import_export.group_imports", "import_export.vulnerability_exports"];
  return tables.flatMap((t) => worker.map((c) => `${t}.${c}`));
}

export type Fingerprint = Map<string, string>;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

export async function serviceTables(database: Database): Promise<{ table: string; columns: string[] }[]> {
  const list = SERVICE_SCHEMAS.map((s) => `'${s}'`).join(", ");
  const res = await database.db.execute(
    sql.raw(`SELECT table_schema || '.' || table_name AS t, array_agg(column_name::text ORDER BY ordinal_position) AS cols
             FROM information_schema.columns WHERE table_schema IN (${list})
               AND (table_schema, table_name) IN (SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE')
             GROUP BY 1 ORDER BY 1`),
  );
  return rowsOf<{ t: string; cols: string[] | string }>(res).map((r) => ({
    table: r.t,
    // node-postgres answers text[] as a JS array; be lenient with "{a,b}".
    columns: Array.isArray(r.cols) ? r.cols : String(r.cols).replace(/^\{|\}$/g, "").split(","),
  }));
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Takes fingerprints of the service tables in two steps. A cheap one first: per table, its row
 * versions (ctid and xmin: every INSERT, UPDATE or DELETE leaves a new set, and nothing is read
 * from the rows themselves). Only the tables whose row versions moved since the last fingerprint
 * have their content hashed again (md5 of each row as jsonb text, volatile columns removed); the
 * others keep the content hash cached. A fingerprint maps each table to "rows:content md5".
 */
export class Fingerprinter {
  private readonly tables: { table: string; from: string; row: string }[];
  private readonly versionsStatement: string;
  private readonly cache = new Map<string, { versions: string; value: string }>();

  constructor(
    private readonly database: Database,
    tables: { table: string; columns: string[] }[],
  ) {
    this.tables = tables
      .filter(({ table }) => !VOLATILE.tables.has(table))
      .map(({ table, columns }) => {
        const drop = columns.filter((c) => VOLATILE.columns.includes(`*.${c}`) || VOLATILE.columns.includes(`${table}.${c}`));
        const [schema, name] = table.split(".");
        const row = drop.length ? `(to_jsonb(t) - ARRAY[${drop.map((c) => `'${c}'`).join(", ")}]::text[])::text` : "to_jsonb(t)::text";
        return { table, from: `${ident(schema)}.${ident(name)} t`, row };
      });
    this.versionsStatement = this.tables
      .map(({ table, from }) => `SELECT '${table}' AS t, md5(coalesce(string_agg(t.ctid::text || t.xmin::text, ',' ORDER BY t.ctid), '')) AS v FROM ${from}`)
      .join("\nUNION ALL\n");
  }

  get size() {
    return this.tables.length;
  }

  async take(): Promise<Fingerprint> {
    const versions = new Map(rowsOf<{ t: string; v: string }>(await this.database.db.execute(sql.raw(this.versionsStatement))).map((r) => [r.t, r.v]));
    const stale = this.tables.filter(({ table }) => this.cache.get(table)?.versions !== versions.get(table));
    if (stale.length) {
      const statement = stale
        .map(({ table, from, row }) => `SELECT '${table}' AS t, count(*)::int AS n, md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS h FROM (SELECT ${row} AS x FROM ${from}) s`)
        .join("\nUNION ALL\n");
      for (const r of rowsOf<{ t: string; n: number; h: string }>(await this.database.db.execute(sql.raw(statement))))
        this.cache.set(r.t, { versions: versions.get(r.t)!, value: `${r.n}:${r.h}` });
    }
    return new Map(this.tables.map(({ table }) => [table, this.cache.get(table)!.value]));
  }
}

/** Tables whose fingerprint differs, with their row counts before → after. */
export function changedTables(a: Fingerprint, b: Fingerprint): string[] {
  const out: string[] = [];
  for (const [t, h] of b) {
    const before = a.get(t);
    if (before !== h) out.push(`${t} (rows ${before?.split(":")[0] ?? "?"} → ${h.split(":")[0]})`);
  }
  for (const t of a.keys()) if (!b.has(t)) out.push(`${t} (gone)`);
  return out;
}

/**
 * The cluster's transaction snapshot as text (xmin:xmax:in-progress ids). Every transaction that
 * changes a row takes a transaction id, and its end shows here: an unchanged mark means no row of
 * any table changed, and the (much dearer) fingerprint need not be taken. A changed mark proves
 * nothing (a read may have touched a volatile column, another database on the server may have
 * written), so the fingerprint decides.
 */
export async function writeMark(database: Database): Promise<string> {
  const res = await database.db.execute(sql.raw("SELECT txid_current_snapshot()::text AS s"));
  return rowsOf<{ s: string }>(res)[0].s;
}

/**
 * Waits until no transaction ends for `quietMs` (the late bus events of an accepted write have
 * landed, or `timeoutMs` passed) and answers the write mark of that quiet state.
 */
export async function settle(database: Database, opts: { quietMs?: number; timeoutMs?: number } = {}): Promise<string> {
  const { quietMs = 30, timeoutMs = 3_000 } = opts;
  // Events an earlier write left in an outbox are delivered in the background (after its answer):
  // wait for them too, or their delivery lands in the next request's before/after comparison.
  await settleOutboxes(database.db, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  let mark = await writeMark(database);
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    const next = await writeMark(database);
    if (next === mark || Date.now() > deadline) return next;
    mark = next;
  }
}
