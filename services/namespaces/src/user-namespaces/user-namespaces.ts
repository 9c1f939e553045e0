import { isUniqueViolation } from "@collab/core";
import type { Db } from "@collab/db";
import { and, count, eq, sql } from "drizzle-orm";
import { namespaces, projects, type NamespaceRow } from "../db/schema";

/**
 * A user's personal namespace, created on first need (the accounts service announces new users,
 * but a missed event must not break project creation). A path taken by a group gets a suffix.
 */
export async function ensureUserNamespace(db: Db, user: { id: number; username: string; name: string }): Promise<NamespaceRow> {
  const [existing] = await db.select().from(namespaces).where(and(eq(namespaces.kind, "user"), eq(namespaces.ownerId, user.id)));
  if (existing) return existing;
  for (let attempt = 0; attempt < 5; attempt++) {
    const path = attempt === 0 ? user.username : `${user.username}${attempt}`;
    const [row] = await db
      .insert(namespaces)
      .values({ kind: "user", name: user.name, path, ownerId: user.id, fullPath: path, fullName: user.name, visibility: "public" })
      .onConflictDoNothing()
      .returning();
    if (row) {
      const [done] = await db.update(namespaces).set({ traversalIds: [row.id] }).where(eq(namespaces.id, row.id)).returning();
      return done;
    }
    const [raced] = await db.select().from(namespaces).where(and(eq(namespaces.kind, "user"), eq(namespaces.ownerId, user.id)));
    if (raced) return raced;
  }
  throw new Error(`could not allocate a namespace path for ${user.username}`);
}

export async function findUserNamespace(db: Db, userId: number): Promise<NamespaceRow | undefined> {
  const [row] = await db.select().from(namespaces).where(and(eq(namespaces.kind, "user"), eq(namespaces.ownerId, userId)));
  return row;
}

export const namespacePathExists = async (db: Db, path: string) =>
  (await db.select({ id: namespaces.id }).from(namespaces).where(sql`lower(${namespaces.fullPath}) = lower(${path})`)).length > 0;

/**
 * Whether `path` is free for the personal namespace of `userId`: no other namespace (group or
 * another user's) has it as its full path, compared case-insensitively. Usernames hold no `/`, so
 * only top-level paths can match.
 */
export async function userNamespacePathAvailable(db: Db, path: string, userId: number): Promise<boolean> {
  const rows = await db
    .select({ kind: namespaces.kind, ownerId: namespaces.ownerId })
    .from(namespaces)
    .where(sql`lower(${namespaces.fullPath}) = lower(${path})`);
  return rows.every((r) => r.kind === "user" && r.ownerId === userId);
}


/**
 * Applies a user's username and name to their personal namespace (path and full path = username,
 * name and full name = name), as GitLab's User#ensure_namespace_correct does on save: personal
 * projects move with it, since their paths are built from the namespace's. Creates the namespace when
 * it is missing. A path taken meanwhile by a group (accounts checks before renaming, but a group may
 * be created in between) gets a suffix, as at creation. Idempotent.
 */
export async function syncUserNamespace(db: Db, user: { id: number; username: string; name: string }): Promise<NamespaceRow> {
  const existing = await findUserNamespace(db, user.id);
  if (!existing) return ensureUserNamespace(db, user);
  if (existing.path === user.username && existing.name === user.name && existing.fullName === user.name) return existing;
  for (let attempt = 0; attempt < 5; attempt++) {
    const path = attempt === 0 ? user.username : `${user.username}${attempt}`;
    if (!(await userNamespacePathAvailable(db, path, user.id))) continue;
    try {
      const [row] = await db
        .update(namespaces)
        .set({ path, fullPath: path, name: user.name, fullName: user.name, updatedAt: new Date() })
        .where(eq(namespaces.id, existing.id))
        .returning();
      return row;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err; // taken between the check and the update: next suffix
    }
  }
  throw new Error(`could not allocate a namespace path for ${user.username}`);
}

/** GitLab's User#personal_projects_count: the projects in the user's personal namespace. */
export async function personalProjectsCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(and(eq(namespaces.kind, "user"), eq(namespaces.ownerId, userId)));
  return Number(row?.n ?? 0);
}
