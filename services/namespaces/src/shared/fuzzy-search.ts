import { sql, type SQL } from "drizzle-orm";

/**
 * GitLab's fuzzy_search over some columns: every word of at least `minChars` characters must
 * appear (ILIKE %word%) in one column; a query with no such word matches a column exactly,
 * case-insensitively. Quoted phrases count as one word.
 */
export function fuzzySearch(columns: SQL[], query: string, minChars: number): SQL | undefined {
  const squished = query.trim().replace(/\s+/g, " ");
  if (squished === "") return undefined;
  const escape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  const words = [...squished.matchAll(/"[^"]+"|[^\s"]+/g)].map((m) => m[0].replace(/"/g, "")).filter((w) => w.length >= minChars);
  const perColumn = columns.map((col) =>
    words.length ? sql.join(words.map((w) => sql`${col} ILIKE ${`%${escape(w)}%`}`), sql` AND `) : sql`${col} ILIKE ${escape(squished)}`,
  );
  return sql`(${sql.join(perColumn.map((c) => sql`(${c})`), sql` OR `)})`;
}
