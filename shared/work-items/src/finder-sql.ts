import { or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** SQL pieces the issue and merge request list finders share. */

/** A LIKE pattern that finds `s` anywhere, its own `\`, `%` and `_` taken literally. */
export const likeTerm = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** GitLab's `search` with `in` (title, description or both): ILIKE on the named columns. */
export function bySearch(where: SQL[], p: { search?: string; in?: string }, columns: { title: AnyPgColumn; description: AnyPgColumn }) {
  if (!p.search) return;
  const fields = (p.in ?? "title,description").split(",").map((f) => f.trim());
  const term = likeTerm(p.search);
  const parts: SQL[] = [];
  if (fields.includes("title")) parts.push(sql`${columns.title} ILIKE ${term}`);
  if (fields.includes("description")) parts.push(sql`${columns.description} ILIKE ${term}`);
  where.push(or(...parts)!);
}

/** An inline table of (id, value) integer pairs, for joining values resolved in another service. */
export function valuesTable(map: Record<number, number | string | null>): SQL {
  const entries = Object.entries(map);
  if (entries.length === 0) return sql`(SELECT NULL::int, NULL::int WHERE FALSE)`;
  return sql`(VALUES ${sql.join(entries.map(([k, v]) => sql`(${Number(k)}::int, ${v}::int)`), sql`, `)})`;
}

/** The date each id of `column` maps to (milestone due dates from namespaces), NULL for others. */
export function dateCase(column: AnyPgColumn, map: Record<number, string | null>): SQL {
  const entries = Object.entries(map).filter(([, v]) => v !== null);
  if (entries.length === 0) return sql`NULL::date`;
  return sql`(CASE ${column} ${sql.join(entries.map(([k, v]) => sql`WHEN ${Number(k)} THEN ${v}::date`), sql` `)} END)`;
}
