import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./database";
import { withCompiledRows } from "./row-mapper";

interface Executable<R> {
  execute(params: Record<string, unknown>): Promise<R>;
}

/** What varies between requests of one list: its filters and its order (values included). */
export interface ListFilters {
  where: SQL | undefined;
  order: SQL[];
  /** Other fragments of the page statement that vary per request (values included), by name. */
  parts?: Record<string, SQL>;
}

const dialect = new PgDialect();
const ORDER_MARK = " /*order by*/ ";
const PART_MARK = " /*part*/ ";

/** SQL text whose `$n` become placeholders `pn`: the values are given at execution. */
function withPlaceholders(text: string): SQL {
  const parts = text.split(/\$(\d+)\b/);
  return sql.join(parts.map((part, i) => (i % 2 ? sql.placeholder(`p${part}`) : sql.raw(part))));
}

/**
 * A list whose filters vary per request (a finder's steps): its page and its count, prepared once
 * per shape. Only the filters and the order are rendered per request — a small part of what
 * drizzle renders for a whole page statement (its select list of every column, the joined
 * subqueries) — and their text picks the shape's two statements, which `page` and `count` made
 * with them as raw SQL (values as placeholders `p1…`, the page as `limit`/`offset`; `parts` rendered
 * the same way reach `page` by name). The two run
 * in parallel: on PostgreSQL's other core a count over many rows overlaps with the page. One pair
 * per distinct text and database handle, the least recently used dropped past `maxShapes`.
 */
export function preparedList<R>(
  page: (db: Db, where: SQL, order: SQL, name: string, parts: Record<string, SQL>) => Executable<R>,
  count: (db: Db, where: SQL, name: string) => Executable<{ total: number }[]>,
  maxShapes = 200,
) {
  const byDb = new WeakMap<Db, Map<string, { page: Executable<R>; count: Executable<{ total: number }[]> }>>();
  return async (db: Db, filters: ListFilters, window: { limit: number; offset: number }): Promise<{ rows: R; total: number }> => {
    const partNames = Object.keys(filters.parts ?? {});
    const parts = partNames.map((k) => sql`${sql.raw(PART_MARK)}${filters.parts![k]}`);
    const rendered = dialect.sqlToQuery(sql`${filters.where ?? sql`TRUE`}${sql.raw(ORDER_MARK)}${sql.join(filters.order, sql`, `)}${sql.join(parts)}`);
    let statements = byDb.get(db);
    if (!statements) byDb.set(db, (statements = new Map()));
    let shape = statements.get(rendered.sql);
    if (shape) statements.delete(rendered.sql);
    else {
      const [whereText, rest] = rendered.sql.split(ORDER_MARK);
      const [orderText, ...partTexts] = rest.split(PART_MARK);
      const where = withPlaceholders(whereText);
      const named = Object.fromEntries(partNames.map((k, i) => [k, withPlaceholders(partTexts[i])]));
      const name = `list_${createHash("sha1").update(rendered.sql).digest("hex").slice(0, 24)}`;
      shape = { page: withCompiledRows(page(db, where, withPlaceholders(orderText), name, named)), count: withCompiledRows(count(db, where, `${name}_count`)) };
      if (statements.size >= maxShapes) statements.delete(statements.keys().next().value!);
    }
    statements.set(rendered.sql, shape);
    const values: Record<string, unknown> = { limit: window.limit, offset: window.offset };
    rendered.params.forEach((v, i) => (values[`p${i + 1}`] = v));
    const [rows, [{ total }]] = await Promise.all([shape.page.execute(values), shape.count.execute(values)]);
    return { rows, total };
  };
}
