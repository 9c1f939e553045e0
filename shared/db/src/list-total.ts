import { sql, type SQLWrapper } from "drizzle-orm";

/**
 * A list's total as a column of its page: the `(SELECT count(*) …)` is uncorrelated, so
 * PostgreSQL computes it once (an InitPlan) and a page with its total costs one round trip.
 */
export const totalColumn = (count: SQLWrapper) => sql<number>`(${count})`.mapWith(Number).as("list_total");

/**
 * The total a page carries in its rows' `listTotal`. An empty page has no row to carry it: on the
 * first page the list is empty; past it the total is asked for alone.
 */
export async function pageTotal(rows: { listTotal: number }[], offset: number, count: () => Promise<number>): Promise<number> {
  if (rows.length) return rows[0].listTotal;
  return offset > 0 ? count() : 0;
}
