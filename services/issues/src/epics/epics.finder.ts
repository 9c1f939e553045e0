import type { Db } from "@collab/db";
import type { ListEpicsParams } from "@collab/issues-contract";
import { bySearch } from "@collab/work-items";
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { epicLabels, epics, type EpicRow } from "../db/schema";

/** An epic with the ids of its labels. */
export type EpicWithLabels = EpicRow & { labelIds: number[] };

/** Where the list looks: each group's id, and whether the caller sees its confidential epics. */
export interface EpicScope {
  groups: { id: number; confidential: boolean }[];
}

/** Name filters turned into ids by the action (null: a name nobody has, so nothing matches). */
export interface EpicNames {
  /** One entry per label asked for, each the ids it may be (a title can be several groups' labels). */
  labelIds?: number[][];
  authorId?: number | null;
}

const ORDER_COLUMNS = { created_at: epics.createdAt, updated_at: epics.updatedAt, title: epics.title } as const;

/** The conditions of an epics list (GitLab's EpicsFinder). */
export function epicConditions(p: ListEpicsParams, scope: EpicScope, names: EpicNames): SQL[] {
  const where: SQL[] = [];
  const open = scope.groups.filter((g) => g.confidential).map((g) => g.id);
  const restricted = scope.groups.filter((g) => !g.confidential).map((g) => g.id);
  const visible: SQL[] = [];
  if (open.length) visible.push(inArray(epics.groupId, open));
  // As GitLab's EpicsFinder: confidential epics only where the caller may read them (no author exception).
  if (restricted.length) visible.push(and(inArray(epics.groupId, restricted), eq(epics.confidential, false))!);
  where.push(visible.length ? or(...visible)! : sql`FALSE`);
  if (p.state !== "all") where.push(eq(epics.state, p.state));
  if (p.confidential !== undefined) where.push(eq(epics.confidential, p.confidential));
  const authorId = p.author_id ?? names.authorId;
  if (authorId === null) where.push(sql`FALSE`);
  else if (authorId !== undefined) where.push(eq(epics.authorId, authorId));
  if (p.created_after) where.push(sql`${epics.createdAt} >= ${p.created_after}`);
  if (p.created_before) where.push(sql`${epics.createdAt} <= ${p.created_before}`);
  if (p.updated_after) where.push(sql`${epics.updatedAt} >= ${p.updated_after}`);
  if (p.updated_before) where.push(sql`${epics.updatedAt} <= ${p.updated_before}`);
  bySearch(where, p, { title: epics.title, description: epics.description });
  const labelled = (ids?: number[]) =>
    sql`EXISTS (SELECT 1 FROM ${epicLabels} WHERE ${epicLabels.epicId} = ${epics.id}${ids ? sql` AND ${epicLabels.labelId} = ANY(${sql.param(ids)}::int[])` : sql``})`;
  if (p.labels === "None") where.push(sql`NOT ${labelled()}`);
  if (p.labels === "Any") where.push(labelled());
  for (const ids of names.labelIds ?? []) where.push(ids.length ? labelled(ids) : sql`FALSE`);
  return where;
}

/** One page of epics and the number matching. */
export async function findEpics(db: Db, p: ListEpicsParams, scope: EpicScope, names: EpicNames): Promise<{ rows: EpicWithLabels[]; total: number }> {
  const where = and(...epicConditions(p, scope, names));
  const direction = p.sort === "asc" ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(epics)
      .where(where)
      .orderBy(direction(ORDER_COLUMNS[p.order_by]), direction(epics.id))
      .limit(p.per_page)
      .offset((p.page - 1) * p.per_page),
    db.select({ total: sql<number>`count(*)::int` }).from(epics).where(where),
  ]);
  return { rows: await withLabels(db, rows), total };
}

/** The epics' label ids, read in one query. */
export async function withLabels(db: Db, rows: EpicRow[]): Promise<EpicWithLabels[]> {
  if (rows.length === 0) return [];
  const links = await db.select().from(epicLabels).where(inArray(epicLabels.epicId, rows.map((r) => r.id)));
  return rows.map((r) => ({ ...r, labelIds: links.filter((l) => l.epicId === r.id).map((l) => l.labelId) }));
}

/** The group's epic with this iid, if any. */
export async function findEpic(db: Db, groupId: number, iid: number): Promise<EpicWithLabels | undefined> {
  const [row] = await db.select().from(epics).where(and(eq(epics.groupId, groupId), eq(epics.iid, iid)));
  return row && (await withLabels(db, [row]))[0];
}

/** The epic with this global id, if any, whichever its group (the notes API names epics by id). */
export async function findEpicById(db: Db, id: number): Promise<EpicRow | undefined> {
  const [row] = await db.select().from(epics).where(eq(epics.id, id));
  return row;
}

/** Epics by global id (parents of a page), any group. */
export async function epicsByIds(db: Db, ids: number[]): Promise<EpicRow[]> {
  return ids.length ? db.select().from(epics).where(inArray(epics.id, [...new Set(ids)])) : [];
}
