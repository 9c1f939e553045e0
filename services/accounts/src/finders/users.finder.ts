import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, desc, eq, gte, ilike, lte, or, sql, type SQL } from "drizzle-orm";
import type { ListUsersParams } from "../api/users.params";
import { users, type UserRow } from "../db/schema";

/** GET /users, one filter per step as GitLab's UsersFinder. Non-admins only see active humans' basics. */
export async function findUsers(db: Db, params: ListUsersParams, viewerIsAdmin: boolean): Promise<{ rows: UserRow[]; total: number }> {
  const where: SQL[] = [];
  byUsername(where, params);
  bySearch(where, params);
  byState(where, params);
  if (viewerIsAdmin) byAdminFilters(where, params);
  byCreatedDates(where, params);
  const condition = where.length ? and(...where) : undefined;

  const column = { id: users.id, name: users.name, username: users.username, created_at: users.createdAt, updated_at: users.updatedAt }[params.order_by];
  const dir = params.sort === "asc" ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(users).where(condition).orderBy(dir(column), dir(users.id)).limit(params.per_page).offset(offsetOf(params)),
    db.select({ total: count() }).from(users).where(condition),
  ]);
  return { rows, total };
}

function byUsername(where: SQL[], p: ListUsersParams) {
  if (p.username !== undefined) where.push(sql`lower(${users.username}) = lower(${p.username})`);
}

function bySearch(where: SQL[], p: ListUsersParams) {
  if (p.search === undefined || p.search === "") return;
  const term = `%${p.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  where.push(or(ilike(users.name, term), ilike(users.username, term), sql`lower(${users.email}) = lower(${p.search})`)!);
}

function byState(where: SQL[], p: ListUsersParams) {
  if (p.active) where.push(eq(users.state, "active"));
  if (p.blocked) where.push(eq(users.state, "blocked"));
}

function byAdminFilters(where: SQL[], p: ListUsersParams) {
  if (p.external) where.push(eq(users.external, true));
  if (p.exclude_external) where.push(eq(users.external, false));
  if (p.admins) where.push(eq(users.admin, true));
  if (p.humans) where.push(eq(users.userType, "human"));
  if (p.without_project_bots) where.push(sql`${users.userType} <> 'project_bot'`);
}

function byCreatedDates(where: SQL[], p: ListUsersParams) {
  if (p.created_after) where.push(gte(users.createdAt, p.created_after));
  if (p.created_before) where.push(lte(users.createdAt, p.created_before));
}

export async function findUserByIdOrUsername(db: Db, ref: string | number): Promise<UserRow | undefined> {
  const text = String(ref);
  const [row] = /^\d+$/.test(text)
    ? await db.select().from(users).where(eq(users.id, Number(text)))
    : await db.select().from(users).where(sql`lower(${users.username}) = lower(${text})`);
  return row;
}
