import { AccessLevel, featureHidden, offsetOf, type Caller, type Pagination } from "@collab/core";
import type { Db } from "@collab/db";
import { and, count, desc, eq, gte, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { snippets, type SnippetRow } from "../db/schema";

/** One snippet by id, inside the project named (null: a personal snippet). */
export async function findSnippet(db: Db, id: number, where: { projectId: number | null }): Promise<SnippetRow | undefined> {
  const owner = where.projectId === null ? isNull(snippets.projectId) : eq(snippets.projectId, where.projectId);
  const [row] = await db.select().from(snippets).where(and(eq(snippets.id, id), owner));
  return row;
}

/**
 * The snippet visibilities a caller sees without being a member: public for everybody, internal
 * for signed-in users who are not external; their own snippets whatever their visibility.
 */
function visibleToNonMember(caller: Caller | null): SQL {
  const levels = caller && !caller.external ? ["public", "internal"] : ["public"];
  const own = caller ? eq(snippets.authorId, caller.id) : undefined;
  return or(inArray(snippets.visibility, levels), own)!;
}

/** The project snippets of a project list's rows the caller may read, given their role there. */
export const projectSnippetsVisible = (caller: Caller | null, role: number): SQL | undefined =>
  caller?.admin || role >= AccessLevel.GUEST ? undefined : visibleToNonMember(caller);

/** Personal snippets the caller may read: admins all of them, others by visibility and authorship. */
const personalVisible = (caller: Caller | null): SQL => and(isNull(snippets.projectId), caller?.admin ? undefined : visibleToNonMember(caller))!;

/** A project as the lists need it: its id, the caller's role there, its snippets feature level. */
export interface SnippetsProject {
  id: number;
  access_level: number;
  snippets_access_level: string;
}

/**
 * Project snippets the caller may read across these projects: every snippet of those they are a
 * member of, the public (and internal) ones elsewhere; projects whose snippets are hidden from them are left out.
 */
function projectSnippetsIn(caller: Caller | null, projects: SnippetsProject[]): SQL | undefined {
  const open = projects.filter((p) => !featureHidden(p.snippets_access_level, p.access_level));
  const member = open.filter((p) => p.access_level >= AccessLevel.GUEST).map((p) => p.id);
  const other = open.filter((p) => p.access_level < AccessLevel.GUEST).map((p) => p.id);
  const parts = [
    member.length ? inArray(snippets.projectId, member) : undefined,
    other.length ? and(inArray(snippets.projectId, other), visibleToNonMember(caller)) : undefined,
  ].filter((p): p is SQL => p !== undefined);
  return parts.length ? or(...parts) : undefined;
}

export interface ListFilters extends Pagination {
  created_after?: Date;
  created_before?: Date;
}

/** Which snippets a list shows (the callers' projects: null when every project is readable, as for administrators). */
export type SnippetScope =
  | { kind: "project"; projectId: number; caller: Caller | null; role: number }
  | { kind: "mine"; caller: Caller; projects: SnippetsProject[] | null }
  | { kind: "public" }
  | { kind: "all"; caller: Caller; projects: SnippetsProject[] | null };

function scopeWhere(scope: SnippetScope): SQL | undefined {
  switch (scope.kind) {
    case "project":
      return and(eq(snippets.projectId, scope.projectId), projectSnippetsVisible(scope.caller, scope.role));
    case "mine": {
      const ownProject = scope.projects === null ? sql`${snippets.projectId} IS NOT NULL` : projectSnippetsIn(scope.caller, scope.projects);
      return and(eq(snippets.authorId, scope.caller.id), or(isNull(snippets.projectId), ownProject));
    }
    case "public":
      return and(isNull(snippets.projectId), eq(snippets.visibility, "public"));
    case "all":
      if (scope.projects === null) return undefined;
      return or(personalVisible(scope.caller), projectSnippetsIn(scope.caller, scope.projects));
  }
}

/** A page of snippets, newest first (GitLab's order), with the total. */
export async function listSnippets(db: Db, scope: SnippetScope, f: ListFilters): Promise<{ rows: SnippetRow[]; total: number }> {
  const where = and(
    scopeWhere(scope),
    f.created_after ? gte(snippets.createdAt, f.created_after) : undefined,
    f.created_before ? lte(snippets.createdAt, f.created_before) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(snippets).where(where).orderBy(desc(snippets.id)).limit(f.per_page).offset(offsetOf(f)),
    db.select({ total: count() }).from(snippets).where(where),
  ]);
  return { rows, total };
}
