import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { namespaces, type NamespaceRow } from "../db/schema";

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
