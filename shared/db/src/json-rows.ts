import type { Column } from "drizzle-orm";

/**
 * A table row a statement answered as JSON (`row_to_json` or `json_agg` over a drizzle select of
 * the table's columns), decoded as drizzle decodes those columns: the JSON keys are the columns'
 * names, the result's keys the table's fields (getTableColumns). For a statement that answers
 * several finders' rows at once, one round trip instead of one each.
 */
export function rowFromJson<T>(columns: Record<string, Column>, json: Record<string, unknown>): T {
  const row: Record<string, unknown> = {};
  for (const key in columns) {
    const column = columns[key];
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T;
}
