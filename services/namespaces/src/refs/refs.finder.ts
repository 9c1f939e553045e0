import type { Db } from "@collab/db";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { repositoryCommits, repositoryRefs, type RepositoryCommitRow, type RepositoryRefRow } from "../db/schema";

export type RefKind = "branch" | "tag";

export interface RefWithCommit {
  ref: RepositoryRefRow;
  commit: RepositoryCommitRow | null;
}

export async function withCommits(db: Db, refs: RepositoryRefRow[]): Promise<RefWithCommit[]> {
  const shas = [...new Set(refs.map((r) => r.sha))];
  const commits = shas.length ? await db.select().from(repositoryCommits).where(inArray(repositoryCommits.sha, shas)) : [];
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  return refs.map((ref) => ({ ref, commit: bySha.get(ref.sha) ?? null }));
}

export async function listRefs(db: Db, projectId: number, kind: RefKind, search?: string): Promise<RefWithCommit[]> {
  const where = [eq(repositoryRefs.projectId, projectId), eq(repositoryRefs.kind, kind)];
  if (search) where.push(sql`${repositoryRefs.name} ILIKE ${"%" + search.replace(/[\\%_]/g, (c) => "\\" + c) + "%"}`);
  const rows = await db.select().from(repositoryRefs).where(and(...where)).orderBy(asc(repositoryRefs.name));
  return withCommits(db, rows);
}

export async function findRef(db: Db, projectId: number, kind: RefKind, name: string): Promise<RefWithCommit | null> {
  const [row] = await db.select().from(repositoryRefs).where(and(eq(repositoryRefs.projectId, projectId), eq(repositoryRefs.kind, kind), eq(repositoryRefs.name, name)));
  return row ? (await withCommits(db, [row]))[0] : null;
}

export type Resolution =
  | { status: "ok"; kind: RefKind; name: string; full_ref: string; sha: string }
  | { status: "missing" }
  | { status: "ambiguous" };

export const fullRef = (kind: RefKind, name: string) => `${kind === "branch" ? "refs/heads" : "refs/tags"}/${name}`;

/** A short (`main`) or full (`refs/heads/main`, `refs/tags/v1`) ref; a short name that is both a branch and a tag is ambiguous. */
export async function resolveRef(db: Db, projectId: number, ref: string): Promise<Resolution> {
  let candidates: { kind: RefKind; name: string }[];
  if (ref.startsWith("refs/heads/")) candidates = [{ kind: "branch", name: ref.slice("refs/heads/".length) }];
  else if (ref.startsWith("refs/tags/")) candidates = [{ kind: "tag", name: ref.slice("refs/tags/".length) }];
  else candidates = [{ kind: "branch", name: ref }, { kind: "tag", name: ref }];
  const names = [...new Set(candidates.map((c) => c.name))];
  if (!names.length || names.some((n) => !n)) return { status: "missing" };
  const rows = await db.select().from(repositoryRefs).where(and(eq(repositoryRefs.projectId, projectId), inArray(repositoryRefs.name, names)));
  const found = rows.filter((r) => candidates.some((c) => c.kind === r.kind && c.name === r.name));
  if (found.length > 1) return { status: "ambiguous" };
  if (!found.length) return { status: "missing" };
  const r = found[0];
  return { status: "ok", kind: r.kind as RefKind, name: r.name, full_ref: fullRef(r.kind as RefKind, r.name), sha: r.sha };
}

/** Git abbreviates shas to no fewer than 4 hex digits. */
const SHA_PREFIX = /^[0-9a-f]{4,40}$/i;

/**
 * A commit of a project as git resolves a revision: a full sha, then a branch or tag (a name that
 * is both is the tag's, as git's refs/tags precede refs/heads), then an unambiguous sha prefix.
 */
export async function findCommit(db: Db, projectId: number, ref: string): Promise<RepositoryCommitRow | null> {
  const commitWhere = (sha: SQL) => db.select().from(repositoryCommits).where(and(eq(repositoryCommits.projectId, projectId), sha)).limit(2);
  if (ref.length === 40 && SHA_PREFIX.test(ref)) return (await commitWhere(eq(repositoryCommits.sha, ref.toLowerCase())))[0] ?? null;
  const refs = await db.select().from(repositoryRefs).where(and(eq(repositoryRefs.projectId, projectId), inArray(repositoryRefs.name, shortNames(ref))));
  const named = refs.find((r) => fullRef(r.kind as RefKind, r.name) === ref) ?? refs.find((r) => r.kind === "tag" && r.name === ref) ?? refs.find((r) => r.name === ref);
  if (named) return (await commitWhere(eq(repositoryCommits.sha, named.sha)))[0] ?? null;
  if (!SHA_PREFIX.test(ref)) return null;
  const matches = await commitWhere(sql`starts_with(${repositoryCommits.sha}, ${ref.toLowerCase()})`);
  return matches.length === 1 ? matches[0] : null;
}

/** The ref names a revision may stand for: itself, and without refs/heads/ or refs/tags/. */
const shortNames = (ref: string) => [ref, ref.replace(/^refs\/(heads|tags)\//, "")];
