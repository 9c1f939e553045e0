import { badRequestMessage, flushAccessEverywhere, isUniqueViolation } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { repositoryCommits, repositoryRefs, type ProjectRow } from "../db/schema";
import { findRef, withCommits, type RefWithCommit } from "./refs.finder";

/** A new commit id: 40 hex digits, like a SHA-1. */
export const newSha = () => randomBytes(20).toString("hex");

/** git check-ref-format, the parts GitLab's branch and tag validators rely on. */
export function validRefName(name: string): boolean {
  if (!name || name.length > 255 || name === "@" || name === "HEAD") return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".") || name.startsWith("-")) return false;
  if (name.includes("..") || name.includes("//") || name.includes("@{")) return false;
  if (name.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock"))) return false;
  return !name.startsWith("refs/");
}

/**
 * The project's default branch, created with an initial commit the first time anyone looks at the
 * repository of a project that has one (projects initialized with a README). A read may create it:
 * the holders of branch heads are flushed then, as after any write of refs.
 */
export async function ensureDefaultBranch(kit: ServiceKit, project: ProjectRow, authorName = "Administrator"): Promise<void> {
  if (!project.defaultBranch) return;
  const db = kit.db;
  const [existing] = await db
    .select({ id: repositoryRefs.id })
    .from(repositoryRefs)
    .where(and(eq(repositoryRefs.projectId, project.id), eq(repositoryRefs.kind, "branch"), eq(repositoryRefs.name, project.defaultBranch)));
  if (existing) return;
  // Only a repository without any branch gets one: a renamed default branch is not invented.
  const [any] = await db.select({ id: repositoryRefs.id }).from(repositoryRefs).where(and(eq(repositoryRefs.projectId, project.id), eq(repositoryRefs.kind, "branch"))).limit(1);
  if (any) return;
  const sha = newSha();
  await db.transaction(async (tx) => {
    await tx.insert(repositoryCommits).values({ sha, projectId: project.id, title: "Initial commit", message: "Initial commit", authorName, authorEmail: "admin@example.com", createdAt: project.createdAt });
    await tx.insert(repositoryRefs).values({ projectId: project.id, kind: "branch", name: project.defaultBranch!, sha, createdAt: project.createdAt }).onConflictDoNothing();
  });
  await flushAccessEverywhere(kit.broker, "default branch created");
}

/** The commit a `ref` param of a create names: a branch, a tag (branch first, as git does) or a known sha. */
async function targetSha(db: Db, projectId: number, ref: string): Promise<string | null> {
  if (/^[0-9a-f]{7,40}$/i.test(ref)) {
    const [c] = await db.select({ sha: repositoryCommits.sha }).from(repositoryCommits).where(and(eq(repositoryCommits.projectId, projectId), sql`${repositoryCommits.sha} LIKE ${ref.toLowerCase() + "%"}`)).limit(2);
    if (c) return c.sha;
  }
  const name = ref.replace(/^refs\/(heads|tags)\//, "");
  const rows = await db.select().from(repositoryRefs).where(and(eq(repositoryRefs.projectId, projectId), eq(repositoryRefs.name, name)));
  const wantKind = ref.startsWith("refs/tags/") ? "tag" : ref.startsWith("refs/heads/") ? "branch" : null;
  const hit = rows.find((r) => (wantKind ? r.kind === wantKind : r.kind === "branch")) ?? (wantKind ? undefined : rows.find((r) => r.kind === "tag"));
  return hit?.sha ?? null;
}

export async function createBranch(db: Db, projectId: number, name: string, ref: string): Promise<RefWithCommit> {
  if (!validRefName(name)) throw badRequestMessage("Branch name is invalid");
  const sha = await targetSha(db, projectId, ref);
  if (!sha) throw badRequestMessage(`Invalid reference name: ${ref}`);
  if (await findRef(db, projectId, "branch", name)) throw badRequestMessage("Branch already exists");
  try {
    const [row] = await db.insert(repositoryRefs).values({ projectId, kind: "branch", name, sha }).returning();
    return (await withCommits(db, [row]))[0];
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequestMessage("Branch already exists");
    throw err;
  }
}

export async function createTag(db: Db, projectId: number, name: string, ref: string, message: string | undefined): Promise<RefWithCommit> {
  if (!validRefName(name)) throw badRequestMessage("Tag name invalid");
  const sha = await targetSha(db, projectId, ref);
  if (!sha) throw badRequestMessage("Target " + ref + " is invalid");
  if (await findRef(db, projectId, "tag", name)) throw badRequestMessage(`Tag ${name} already exists`);
  try {
    const [row] = await db.insert(repositoryRefs).values({ projectId, kind: "tag", name, sha, message: message || null }).returning();
    return (await withCommits(db, [row]))[0];
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequestMessage(`Tag ${name} already exists`);
    throw err;
  }
}

export async function deleteRef(db: Db, id: number): Promise<void> {
  await db.delete(repositoryRefs).where(eq(repositoryRefs.id, id));
}
