import { offsetOf, recordId } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, asc, count, desc, eq, ilike, gte, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { ListUsersParams } from "@collab/accounts-contract";
import { users, type UserRow } from "../db/schema";

/** States hidden from non-administrators' user lists (User::FORBIDDEN_SEARCH_STATES). */
const FORBIDDEN_SEARCH_STATES = ["blocked", "banned", "ldap_blocked"];

/**
 * GET /users, one filter per step as GitLab's UsersFinder. Non-admins never see blocked or banned
 * users, and their created_*, order_by and sort params are ignored, as GitLab's API drops them.
 */
export async function findUsers(db: Db, params: ListUsersParams, viewerIsAdmin: boolean): Promise<{ rows: UserRow[]; total: number }> {
  const p: ListUsersParams = viewerIsAdmin ? params : { ...params, created_after: undefined, created_before: undefined, order_by: undefined, sort: undefined };
  const where: SQL[] = [];
  if (!viewerIsAdmin) where.push(notInArray(users.state, FORBIDDEN_SEARCH_STATES));
  byUsername(where, p);
  const search = bySearch(where, p, viewerIsAdmin);
  byState(where, p);
  if (viewerIsAdmin) byAdminFilters(where, p);
  byCreatedDates(where, p);
  const condition = where.length ? and(...where) : undefined;

  const [rows, [{ total }]] = await Promise.all([
    db.select().from(users).where(condition).orderBy(...orderOf(p, search)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(users).where(condition),
  ]);
  return { rows, total };
}

/** A search without order_by/sort keeps User.search's relevance order; otherwise order_by (id) and sort (desc), id breaking ties. */
function orderOf(p: ListUsersParams, search: string | undefined): SQL[] {
  if (search !== undefined && p.order_by === undefined && p.sort === undefined) {
    const priority = sql`CASE WHEN lower(${users.publicEmail}) = ${search} THEN 0 WHEN lower(${users.username}) = ${search} THEN 1 WHEN lower(${users.name}) = ${search} THEN 2 ELSE 3 END`;
    return [asc(priority), asc(users.name), asc(users.id)];
  }
  const column = { id: users.id, name: users.name, username: users.username, created_at: users.createdAt, updated_at: users.updatedAt }[p.order_by ?? "id"];
  const dir = p.sort === "asc" ? asc : desc;
  return [dir(column), dir(users.id)];
}

function byUsername(where: SQL[], p: ListUsersParams) {
  if (p.username !== undefined) where.push(sql`lower(${users.username}) = lower(${p.username})`);
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * User.search: a leading "@" is ignored; name and username match every whitespace-separated term of
 * three characters or more (quoted phrases are one term), or the whole query exactly when no term is
 * that long; e-mail matches exactly — the primary address for administrators, the public one for others.
 * Returns the lower-cased query, or undefined when there is no search.
 */
function bySearch(where: SQL[], p: ListUsersParams, viewerIsAdmin: boolean): string | undefined {
  if (p.search === undefined || p.search === "") return undefined;
  const query = p.search.replace(/^@/, "").trim().toLowerCase();
  if (query === "") {
    where.push(sql`false`);
    return undefined;
  }
  const terms = searchTerms(query).filter((t) => t.length >= 3);
  const fuzzy = (column: typeof users.name | typeof users.username) =>
    terms.length > 0 ? and(...terms.map((t) => ilike(column, `%${likeEscape(t)}%`)))! : ilike(column, likeEscape(query));
  const email = viewerIsAdmin ? sql`lower(${users.email}) = ${query}` : sql`lower(${users.publicEmail}) = ${query}`;
  where.push(or(email, fuzzy(users.name), fuzzy(users.username))!);
  return query;
}

/** Gitlab::SQL::Pattern.split_query_to_search_terms: words, then "quoted phrases" as single terms. */
function searchTerms(query: string): string[] {
  const quoted: string[] = [];
  const rest = query.replace(/"[^"]+"/g, (q) => {
    quoted.push(q.slice(1, -1));
    return "";
  });
  return [...rest.split(/\s+/).filter(Boolean), ...quoted];
}

function byState(where: SQL[], p: ListUsersParams) {
  if (p.active) where.push(eq(users.state, "active"));
  if (p.blocked) where.push(or(eq(users.state, "blocked"), eq(users.state, "ldap_blocked"))!);
}

function byAdminFilters(where: SQL[], p: ListUsersParams) {
  if (p.external) where.push(eq(users.external, true));
  if (p.exclude_external) where.push(eq(users.external, false));
  if (p.admins) where.push(eq(users.admin, true));
  if (p.humans) where.push(eq(users.userType, "human"));
  // GitLab's group access token bots are project_bot users too; here they are group_bot.
  if (p.without_project_bots) where.push(sql`${users.userType} NOT IN ('project_bot', 'group_bot')`);
}

function byCreatedDates(where: SQL[], p: ListUsersParams) {
  if (p.created_after) where.push(gte(users.createdAt, p.created_after));
  if (p.created_before) where.push(lte(users.createdAt, p.created_before));
}

/** By numeric id (all digits) or by username, case-insensitively; undefined when there is none. */
export async function findUserByIdOrUsername(db: Db, ref: string | number): Promise<UserRow | undefined> {
  const id = recordId(ref);
  if (id === null) return undefined; // all digits, beyond any id
  if (id !== undefined) {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  }
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = lower(${String(ref)})`);
  return row;
}

/** Users by id for users.refs, the call every other service's presenters make: a prepared statement. */
export const usersByIds = preparedQuery((db: Db) =>
  db.select().from(users).where(sql`${users.id} = ANY(${sql.placeholder("ids")}::int[])`).prepare("accounts_users_by_ids"),
);

const refColumns = { id: users.id, username: users.username, name: users.name, state: users.state };

/** What a user reference shows (UserBasic), for these ids or lower-cased usernames: one statement. */
export const userRefsByIds = preparedQuery((db: Db) =>
  db.select(refColumns).from(users).where(sql`${users.id} = ANY(${sql.placeholder("ids")}::int[])`).prepare("accounts_user_refs_by_ids"),
);
export const userRefsByIdsOrNames = preparedQuery((db: Db) =>
  db
    .select(refColumns)
    .from(users)
    .where(sql`${users.id} = ANY(${sql.placeholder("ids")}::int[]) OR lower(${users.username}) = ANY(${sql.placeholder("names")}::text[])`)
    .prepare("accounts_user_refs_by_ids_or_names"),
);
