import { recordNotFound } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, eq } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { clientKeys, type ClientKeyRow } from "../db/schema";

/** GitLab's format: `glet_` and 32 hex digits. */
export const newPublicKey = () => `glet_${randomBytes(16).toString("hex")}`;

export async function listClientKeys(db: Db, projectId: number, p: { page: number; per_page: number }): Promise<{ rows: ClientKeyRow[]; total: number }> {
  const where = eq(clientKeys.projectId, projectId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(clientKeys).where(where).orderBy(asc(clientKeys.id)).limit(p.per_page).offset((p.page - 1) * p.per_page),
    db.select({ total: count() }).from(clientKeys).where(where),
  ]);
  return { rows, total };
}

export async function createClientKey(db: Db, projectId: number): Promise<ClientKeyRow> {
  const [row] = await db.insert(clientKeys).values({ projectId, publicKey: newPublicKey() }).returning();
  return row;
}

/** Deletes a key of this project (a key of another project is not found here): the deleted row. */
export async function deleteClientKey(db: Db, projectId: number, keyId: number): Promise<ClientKeyRow> {
  const [row] = await db.delete(clientKeys).where(and(eq(clientKeys.id, keyId), eq(clientKeys.projectId, projectId))).returning();
  if (!row) throw recordNotFound();
  return row;
}

/** The active key with this public key in this project, if any: what a collector request must carry. */
export async function activeClientKey(db: Db, projectId: number, publicKey: string): Promise<ClientKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(clientKeys)
    .where(and(eq(clientKeys.projectId, projectId), eq(clientKeys.publicKey, publicKey), eq(clientKeys.active, true)));
  return row;
}
