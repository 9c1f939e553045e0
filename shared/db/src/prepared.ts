import { createHash } from "node:crypto";
import type { Db } from "./database";
import { withCompiledRows } from "./row-mapper";

interface Executable<P, R> {
  execute(params: P): Promise<R>;
}

/**
 * A hot, fixed-shape query built once per database handle and run as a named prepared statement.
 * Otherwise drizzle rebuilds the SQL text on every call, which costs more CPU than anything else a
 * request does in a service (see bench/README.md). Values come from `sql.placeholder(...)`; a list
 * is one array placeholder (`= ANY(${sql.placeholder("ids")}::int[])`), so the text never varies.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(build: (db: Db) => Executable<P, R>): (db: Db, params: P) => Promise<R> {
  const byDb = new WeakMap<Db, Executable<P, R>>();
  return (db, params) => {
    let query = byDb.get(db);
    if (!query) {
      query = withCompiledRows(build(db));
      byDb.set(db, query);
    }
    return query.execute(params);
  };
}

/**
 * Prepared statements for a query whose text depends on a few switches (a sort order, whether a
 * filter applies): one statement per shape, built the first time that shape runs on a database
 * handle. `shape` must name everything the text depends on (including the tables, when one
 * builder serves several services' tables); `build` receives it with a statement name unique to it.
 */
export function preparedByShape<S, P extends Record<string, unknown>, R>(
  keyOf: (shape: S) => string,
  build: (db: Db, shape: S, name: string) => Executable<P, R>,
): (db: Db, shape: S, params: P) => Promise<R> {
  const byDb = new WeakMap<Db, Map<string, Executable<P, R>>>();
  return (db, shape, params) => {
    let statements = byDb.get(db);
    if (!statements) byDb.set(db, (statements = new Map()));
    const key = keyOf(shape);
    let query = statements.get(key);
    if (!query) statements.set(key, (query = withCompiledRows(build(db, shape, `shape_${createHash("sha1").update(key).digest("hex").slice(0, 20)}`))));
    return query.execute(params);
  };
}
