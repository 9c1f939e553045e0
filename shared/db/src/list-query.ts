import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./database";

interface Executable<R> {
  execute(params: Record<string, unknown>): Promise<R>;
}

/** What varies between requests of one list: its filters and its order (values included). */
export interface ListFilters {
  where: SQL | undefined;
  order: SQL[];
}

const dialect = new PgDialect();
const ORDER_MARK = " /*order by*/ ";

/** SQL text whose `$n` become placeholders `pn`: the values are given at execution. */
function withPlaceholders(text: string): SQL {
  const parts = text.split(/\$(\d+)\b/);
  return sql.join(parts.map((part, i) => (i % 2 ? sql.placeholder(`p${part}`) : sql.raw(part))));
}

/**
 * A list query whose filters vary per request (a finder's steps), prepared once per shape. Only
 * the filters and the order are rendered per request — a small part of what drizzle renders for
 * a whole page statement (its select list of every column, the joined subqueries) — and their
 * text picks the prepared statement, which `build` made with them as raw SQL (values as
 * placeholders `p1…`, the page as `limit`/`offset`). One statement per distinct text and
 * database handle, the least recently used dropped past `maxShapes`.
 */
export function preparedList<R>(build: (db: Db, where: SQL, order: SQL, name: string) => Executable<R>, maxShapes = 200) {
  const byDb = new WeakMap<Db, Map<string, Executable<R>>>();
  return (db: Db, filters: ListFilters, page: { limit: number; offset: number }): Promise<R> => {
    const rendered = dialect.sqlToQuery(sql`${filters.where ?? sql`TRUE`}${sql.raw(ORDER_MARK)}${sql.join(filters.order, sql`, `)}`);
    let statements = byDb.get(db);
    if (!statements) byDb.set(db, (statements = new Map()));
    let query = statements.get(rendered.sql);
    if (query) statements.delete(rendered.sql);
    else {
      const [where, order] = rendered.sql.split(ORDER_MARK);
      query = build(db, withPlaceholders(where), withPlaceholders(order), `list_${createHash("sha1").update(rendered.sql).digest("hex").slice(0, 24)}`);
      if (statements.size >= maxShapes) statements.delete(statements.keys().next().value!);
    }
    statements.set(rendered.sql, query);
    const values: Record<string, unknown> = { limit: page.limit, offset: page.offset };
    rendered.params.forEach((v, i) => (values[`p${i + 1}`] = v));
    return query.execute(values);
  };
}
