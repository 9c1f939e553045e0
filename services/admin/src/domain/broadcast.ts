import { recordNotFound, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { count, desc, eq } from "drizzle-orm";
import type { CreateBroadcastParams, UpdateBroadcastParams } from "@collab/admin-contract";
import { broadcastMessages, type BroadcastMessageRow } from "../db/schema";

const HOUR = 3600_000;

function validate(m: { message: string; startsAt: Date; endsAt: Date }) {
  const errors: Record<string, string[]> = {};
  if (m.message.trim() === "") errors.message = ["can't be blank"];
  if (m.endsAt.getTime() < m.startsAt.getTime()) errors.ends_at = ["must be after the start date"];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export async function findBroadcast(db: Db, id: number): Promise<BroadcastMessageRow> {
  const [row] = await db.select().from(broadcastMessages).where(eq(broadcastMessages.id, id));
  if (!row) throw recordNotFound();
  return row;
}

export async function listBroadcasts(db: Db, p: { page: number; per_page: number }) {
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(broadcastMessages).orderBy(desc(broadcastMessages.id)).limit(p.per_page).offset((p.page - 1) * p.per_page),
    db.select({ total: count() }).from(broadcastMessages),
  ]);
  return { rows, total };
}

/** Defaults: starts now, ends an hour later, a banner in the indigo theme. */
export async function createBroadcast(db: Db, p: CreateBroadcastParams): Promise<BroadcastMessageRow> {
  const now = new Date();
  const startsAt = p.starts_at ?? now;
  const endsAt = p.ends_at ?? new Date(now.getTime() + HOUR);
  validate({ message: p.message, startsAt, endsAt });
  const [row] = await db
    .insert(broadcastMessages)
    .values({
      message: p.message,
      startsAt,
      endsAt,
      font: p.font ?? null,
      targetAccessLevels: p.target_access_levels ?? [],
      targetPath: p.target_path ?? null,
      broadcastType: p.broadcast_type ?? "banner",
      dismissable: p.dismissable ?? null,
      theme: p.theme ?? "indigo",
    })
    .returning();
  return row;
}

export async function updateBroadcast(db: Db, p: UpdateBroadcastParams): Promise<BroadcastMessageRow> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(broadcastMessages).where(eq(broadcastMessages.id, p.id)).for("update");
    if (!existing) throw recordNotFound();
    const next = {
      message: p.message ?? existing.message,
      startsAt: p.starts_at ?? existing.startsAt,
      endsAt: p.ends_at ?? existing.endsAt,
    };
    validate(next);
    const [row] = await tx
      .update(broadcastMessages)
      .set({
        ...next,
        ...(p.font !== undefined && { font: p.font }),
        ...(p.target_access_levels !== undefined && { targetAccessLevels: p.target_access_levels }),
        ...(p.target_path !== undefined && { targetPath: p.target_path }),
        ...(p.broadcast_type !== undefined && { broadcastType: p.broadcast_type }),
        ...(p.dismissable !== undefined && { dismissable: p.dismissable }),
        ...(p.theme !== undefined && { theme: p.theme }),
        updatedAt: new Date(),
      })
      .where(eq(broadcastMessages.id, p.id))
      .returning();
    return row;
  });
}

export async function deleteBroadcast(db: Db, id: number): Promise<void> {
  const rows = await db.delete(broadcastMessages).where(eq(broadcastMessages.id, id)).returning({ id: broadcastMessages.id });
  if (!rows.length) throw recordNotFound();
}
