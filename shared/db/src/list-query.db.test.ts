import { and, asc, count, desc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import { integer, pgSchema, text } from "drizzle-orm/pg-core";
import { type Database, type Db } from "./database";
import { openScratchDatabase } from "./testing";
import { preparedList, type ListFilters } from "./list-query";

// A finder's page and count through preparedList on a scratch PostgreSQL database: the filters' values reach both
// statements, and each shape gets its own pair.
const s = pgSchema("list_query");
const things = s.table("things", { id: integer("id").primaryKey(), kind: text("kind").notNull(), size: integer("size").notNull() });

let database: Database;
let dispose: () => Promise<void>;
let db: Db;
const built: string[] = [];
const page = preparedList(
  (d, where, order, name) => {
    built.push(name);
    return d.select().from(things).where(where).orderBy(order).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare(name);
  },
  (d, where, name) => d.select({ total: count() }).from(things).where(where).prepare(name),
  2,
);

const list = async (filters: ListFilters, limit = 3, offset = 0) => {
  const { rows, total } = await page(db, filters, { limit, offset });
  return { ids: rows.map((r) => r.id), total };
};

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("list-query"));
  db = database.db;
  await db.execute(sql`CREATE SCHEMA list_query`);
  await db.execute(sql`CREATE TABLE list_query.things (id int PRIMARY KEY, kind text NOT NULL, size int NOT NULL)`);
  await db.insert(things).values(Array.from({ length: 10 }, (_, i) => ({ id: i + 1, kind: i % 2 ? "odd" : "even", size: (i * 7) % 10 })));
}, 60_000);

afterAll(() => dispose?.());

test("the filters' values and the page reach the statement; the total is the whole list's", async () => {
  expect(await list({ where: eq(things.kind, "odd"), order: [asc(things.id)] })).toEqual({ ids: [2, 4, 6], total: 5 });
  expect(await list({ where: eq(things.kind, "even"), order: [asc(things.id)] }, 3, 3)).toEqual({ ids: [7, 9], total: 5 });
  expect(await list({ where: and(eq(things.kind, "even"), gte(things.size, 4)), order: [desc(things.size), desc(things.id)] })).toEqual({ ids: [5, 9, 3], total: 3 });
});

test("one statement per shape: other values reuse it, another filter or order builds one", async () => {
  built.length = 0;
  await list({ where: inArray(things.id, [1, 2, 3]), order: [asc(things.id)] });
  await list({ where: inArray(things.id, [4, 5, 6]), order: [asc(things.id)] });
  expect(built).toHaveLength(1);
  expect(await list({ where: inArray(things.id, [4, 5, 6]), order: [desc(things.id)] })).toEqual({ ids: [6, 5, 4], total: 3 });
  expect(built).toHaveLength(2);
});

test("past maxShapes the least recently used shape is dropped and built again when it returns", async () => {
  built.length = 0;
  const byKind = { where: eq(things.kind, "odd"), order: [asc(things.id)] };
  const bySize = { where: gte(things.size, 5), order: [asc(things.id)] };
  const all = { where: undefined, order: [desc(things.id)] };
  await list(byKind);
  await list(bySize);
  await list(byKind); // most recent again: bySize is now the oldest
  await list(all); // evicts bySize
  expect(built).toHaveLength(3);
  expect(await list(byKind)).toEqual({ ids: [2, 4, 6], total: 5 });
  expect(built).toHaveLength(3);
  expect(await list(bySize)).toEqual({ ids: [2, 5, 6], total: 5 });
  expect(built).toHaveLength(4);
});

test("an empty page still has the list's total", async () => {
  expect(await list({ where: eq(things.kind, "none"), order: [asc(things.id)] })).toEqual({ ids: [], total: 0 });
  expect(await list({ where: eq(things.kind, "odd"), order: [asc(things.id)] }, 3, 9)).toEqual({ ids: [], total: 5 });
});

test("text that looks like a parameter inside a value stays a value", async () => {
  expect(await list({ where: sql`${things.kind} <> ${"$1"}`, order: [asc(things.id)] }, 2)).toEqual({ ids: [1, 2], total: 10 });
});

test("parts reach the page statement by name with their values, and are part of its shape", async () => {
  const capped = preparedList(
    (d, where, order, name, { cap }) =>
      d.select().from(things).where(sql`${where} AND ${things.id} <= ${cap}`).orderBy(order).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare(name),
    (d, where, name) => d.select({ total: count() }).from(things).where(where).prepare(name),
  );
  const ids = async (cap: SQL) => (await capped(db, { where: eq(things.kind, "odd"), order: [asc(things.id)], parts: { cap } }, { limit: 10, offset: 0 })).rows.map((r) => r.id);
  expect(await ids(sql`${5}::int`)).toEqual([2, 4]);
  expect(await ids(sql`${9}::int`)).toEqual([2, 4, 6, 8]);
  expect(await ids(sql`(${3}::int + ${3}::int)`)).toEqual([2, 4, 6]);
});
