import { paramError, validationFailed, type Ctx } from "@collab/core";
import type { Db } from "@collab/db";
import { and, count, desc, eq, notInArray, sql } from "drizzle-orm";
import { storageMoves, type StorageMoveRow } from "../db/schema";

export type ContainerType = "project" | "snippet" | "group";

/** States of a move (GitLab's RepositoryStorageMovable); the worker advances scheduled → started → finished. */
export const ACTIVE_STATES = ["initial", "scheduled", "started", "replicated"];

/** Picks a destination by weight (GitLab's pick_repository_storage), preferring another storage. */
export function pickStorage(weights: Record<string, number>, source: string): string {
  const entries = Object.entries(weights).filter(([, w]) => w > 0);
  const others = entries.filter(([name]) => name !== source);
  const pool = others.length ? others : entries;
  const total = pool.reduce((s, [, w]) => s + w, 0);
  let r = Math.random() * total;
  for (const [name, w] of pool) if ((r -= w) < 0) return name;
  return pool[0]?.[0] ?? source;
}

export async function listMoves(db: Db, type: ContainerType, p: { page: number; per_page: number }, containerId?: number) {
  const where = and(eq(storageMoves.containerType, type), containerId === undefined ? undefined : eq(storageMoves.containerId, containerId));
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(storageMoves).where(where).orderBy(desc(storageMoves.createdAt), desc(storageMoves.id)).limit(p.per_page).offset((p.page - 1) * p.per_page),
    db.select({ total: count() }).from(storageMoves).where(where),
  ]);
  return { rows, total };
}

export async function findMove(db: Db, type: ContainerType, id: number, containerId?: number): Promise<StorageMoveRow | undefined> {
  const [row] = await db
    .select()
    .from(storageMoves)
    .where(and(eq(storageMoves.id, id), eq(storageMoves.containerType, type), containerId === undefined ? undefined : eq(storageMoves.containerId, containerId)));
  return row;
}

/**
 * Schedules moves: marks the containers read-only in namespaces (only those still writable — a
 * container already moving answers the model's "is read-only"), then records the moves.
 */
export async function scheduleMoves(
  db: Db,
  ctx: Ctx<unknown>,
  type: "project" | "group",
  containers: { id: number; source: string }[],
  destination: (source: string) => string,
  single: boolean,
): Promise<StorageMoveRow[]> {
  if (!containers.length) return [];
  const locked = await ctx.call<number[], object>("namespaces.storage.setState", { kind: type, ids: containers.map((c) => c.id), read_only: true, expect_writable: true });
  if (single && !locked.length) throw validationFailed({ [type]: ["is read-only"] });
  const lockedSet = new Set(locked);
  const values = containers
    .filter((c) => lockedSet.has(c.id))
    .map((c) => ({ containerType: type, containerId: c.id, state: "scheduled", sourceStorageName: c.source, destinationStorageName: destination(c.source) }));
  if (!values.length) return [];
  try {
    return await db.insert(storageMoves).values(values).returning();
  } catch (err) {
    await ctx.call("namespaces.storage.setState", { kind: type, ids: locked, read_only: false });
    throw err;
  }
}

/**
 * One worker step for every active move: scheduled → started → finished. Each step claims its rows
 * with a conditional UPDATE … RETURNING, so several admin replicas never advance a move twice, and
 * no transaction is held across the bus calls. On finish the container takes its new storage and
 * becomes writable again; a container that vanished fails the move.
 */
export async function tick(db: Db, call: <T>(action: string, params: object) => Promise<T>): Promise<number> {
  // Finish first what had already started, so one tick advances each move one state only.
  const finishing = await db
    .update(storageMoves)
    .set({ state: "finished", updatedAt: sql`now()` })
    .where(eq(storageMoves.state, "started"))
    .returning();
  for (const move of finishing) {
    if (move.containerType === "snippet") continue;
    const changed = await call<number[]>("namespaces.storage.setState", {
      kind: move.containerType,
      ids: [move.containerId],
      read_only: false,
      storage: move.destinationStorageName,
    });
    if (!changed.length) await db.update(storageMoves).set({ state: "failed", errorMessage: "container no longer exists" }).where(eq(storageMoves.id, move.id));
  }
  const started = await db
    .update(storageMoves)
    .set({ state: "started", updatedAt: sql`now()` })
    .where(and(eq(storageMoves.state, "scheduled"), finishing.length ? notInArray(storageMoves.id, finishing.map((m) => m.id)) : undefined))
    .returning({ id: storageMoves.id });
  return finishing.length + started.length;
}

export const unknownStorage = (param: string) => paramError(`${param} does not have a valid value`);
