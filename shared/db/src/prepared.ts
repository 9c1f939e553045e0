import type { Db } from "./database";

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
      query = build(db);
      byDb.set(db, query);
    }
    return query.execute(params);
  };
}
