import { Column, getTableName, is, SQL, Subquery, type ColumnBaseConfig } from "drizzle-orm";
import { PgTimestamp } from "drizzle-orm/pg-core";
import { parsePgTimestamp } from "./pg-timestamp";

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** A selected field as a drizzle prepared query keeps it: where it goes in the row object, and what decodes it. */
interface SelectedField {
  path: string[];
  field: unknown;
}

/** The parts of drizzle's prepared query (node-postgres) its result mapping reads. */
interface MappableQuery {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** SQL's decoder (what `.mapWith` set) is not in its public type. */
const decoderOfSql = (value: SQL) => (value as unknown as { decoder: Decoder }).decoder;

/** A timestamp column's decoding, its text read by parsePgTimestamp rather than Date's slow parser. */
function timestampDecoder(column: PgTimestamp<ColumnBaseConfig<"date", "PgTimestamp">>): Decoder {
  const zonelessIsUtc = !column.withTimezone;
  return { mapFromDriverValue: (value) => (typeof value === "string" && parsePgTimestamp(value, zonelessIsUtc)) || column.mapFromDriverValue(value as string | Date) };
}

function decoderOf(field: unknown): Decoder {
  if (is(field, PgTimestamp)) return timestampDecoder(field);
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field as unknown as { _: { sql: SQL } })._.sql);
  return decoderOfSql((field as { sql: SQL }).sql); // SQL.Aliased
}

/**
 * drizzle's row mapping (`mapResultRow`) for one select list, worked out once: the decoder, the
 * path and the table of each column. drizzle looks all of that up again for every cell (class
 * checks through CommonJS getters, a path iterator), which was most of its time in a list request
 * (bench/README.md). Same objects, same key order, same rule for a left-joined table whose first
 * column is null (the whole object becomes null); timestamp columns read with parsePgTimestamp.
 */
export function compileRowMapper(fields: SelectedField[], joinsNotNullableMap?: Record<string, boolean>): (row: unknown[]) => Record<string, unknown> {
  const count = fields.length;
  const decoders = fields.map((f) => decoderOf(f.field));
  const paths = fields.map((f) => f.path);
  const tables = fields.map((f) => (joinsNotNullableMap && f.path.length === 2 && is(f.field, Column) ? getTableName((f.field as Column).table) : undefined));
  // Only a table joined as nullable (a left join's) can turn an object null: with none, no bookkeeping.
  const nullable = tables.some((t) => t !== undefined && !joinsNotNullableMap![t]);
  return (row) => {
    const result: Record<string, unknown> = {};
    const nullify: Record<string, string | false> | undefined = nullable ? {} : undefined;
    for (let i = 0; i < count; i++) {
      const path = paths[i];
      const last = path.length - 1;
      let node = result;
      for (let j = 0; j < last; j++) node = (node[path[j]] ??= {}) as Record<string, unknown>;
      const raw = row[i];
      const value = raw === null ? null : decoders[i].mapFromDriverValue(raw);
      node[path[last]] = value;
      const table = nullify && tables[i];
      if (table) {
        const seen = nullify![path[0]];
        if (seen === undefined) nullify![path[0]] = value === null ? table : false;
        else if (typeof seen === "string" && seen !== table) nullify![path[0]] = false;
      }
    }
    if (nullify) for (const name in nullify) if (typeof nullify[name] === "string" && !joinsNotNullableMap![nullify[name] as string]) result[name] = null;
    return result;
  };
}

/**
 * Gives a drizzle prepared select the compiled mapping above (as its `customResultMapper`, which
 * drizzle calls with the rows in array mode instead of mapping each one itself). Statements
 * without a select list (`db.execute`) or with their own mapping (relational queries) are left as
 * they are. Compiled on first use: drizzle sets the join map after preparing.
 */
export function withCompiledRows<Q>(query: Q): Q {
  const q = query as unknown as MappableQuery;
  if (!q.fields || q.customResultMapper) return query;
  let mapRow: ((row: unknown[]) => Record<string, unknown>) | undefined;
  q.customResultMapper = (rows) => {
    mapRow ??= compileRowMapper(q.fields!, q.joinsNotNullableMap);
    return rows.map(mapRow);
  };
  return query;
}
