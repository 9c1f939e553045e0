import { eq, sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgSchema, text, timestamp } from "drizzle-orm/pg-core";
import { type Database, type Db } from "./database";
import { openScratchDatabase } from "./testing";
import { preparedQuery } from "./prepared";

// The compiled row mapping must give what drizzle's own gives, object for object and key for key
// (the presenters' JSON depends on both): the same select run as a plain drizzle query and as a
// prepared one (preparedQuery compiles its mapping).
const s = pgSchema("row_mapper");
const owners = s.table("owners", { id: integer("id").primaryKey(), name: text("name").notNull(), since: timestamp("since", { withTimezone: true }).notNull() });
const things = s.table("things", {
  id: integer("id").primaryKey(),
  ownerId: integer("owner_id"),
  title: text("title").notNull(),
  done: boolean("done").notNull(),
  meta: jsonb("meta"),
  dueAt: timestamp("due_at", { withTimezone: true }),
});

let database: Database;
let dispose: () => Promise<void>;
let db: Db;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("row-mapper"));
  db = database.db;
  await db.execute(sql`CREATE SCHEMA row_mapper`);
  await db.execute(sql`CREATE TABLE row_mapper.owners (id int PRIMARY KEY, name text NOT NULL, since timestamptz NOT NULL)`);
  await db.execute(sql`CREATE TABLE row_mapper.things (id int PRIMARY KEY, owner_id int, title text NOT NULL, done boolean NOT NULL, meta jsonb, due_at timestamptz)`);
  await db.insert(owners).values([{ id: 1, name: "ada", since: new Date("2024-02-03T04:05:06.789Z") }]);
  await db.insert(things).values([
    { id: 1, ownerId: 1, title: "owned", done: true, meta: { tags: ["a"] }, dueAt: new Date("2025-01-01T00:00:00Z") },
    { id: 2, ownerId: null, title: "orphan", done: false, meta: null, dueAt: null },
    { id: 3, ownerId: 99, title: "dangling owner", done: false, meta: [1, 2], dueAt: null },
  ]);
}, 60_000);

afterAll(() => dispose?.());

const nested = (d: Db) =>
  d
    .select({
      thing: things,
      owner: owners,
      label: sql<string>`upper(${things.title})`,
      counts: { open: sql<number>`(${things.id} * 10)`.mapWith(Number), since: owners.since },
    })
    .from(things)
    .leftJoin(owners, eq(owners.id, things.ownerId))
    .orderBy(things.id);

const nestedPrepared = preparedQuery((d: Db) => nested(d).prepare("row_mapper_nested"));
const innerPrepared = preparedQuery((d: Db) => d.select({ thing: things, owner: owners }).from(things).innerJoin(owners, eq(owners.id, things.ownerId)).prepare("row_mapper_inner"));
const flatPrepared = preparedQuery((d: Db) => d.select().from(things).where(eq(things.id, sql.placeholder("id"))).prepare("row_mapper_flat"));

test("a left join, SQL fields, decoders and nested objects map as drizzle maps them", async () => {
  const expected = await nested(db);
  const got = await nestedPrepared(db, {});
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  expect(got).toEqual(expected);
  // What the comparison covers: a missing joined row is a null object, timestamps are Dates.
  expect(got[1].owner).toBeNull();
  expect(got[2].owner).toBeNull();
  expect(got[0].owner?.since).toBeInstanceOf(Date);
  expect(got[0].counts).toEqual({ open: 10, since: new Date("2024-02-03T04:05:06.789Z") });
  // drizzle's rule, kept: a nested object whose first table column is null from a left-joined
  // table becomes null whole, SQL fields beside it included.
  expect(got[1].counts).toBeNull();
});

test("a whole-table select maps to its columns' keys in table order", async () => {
  const [expected] = await db.select().from(things).where(eq(things.id, 1));
  const [got] = await flatPrepared(db, { id: 1 });
  expect(Object.keys(got)).toEqual(["id", "ownerId", "title", "done", "meta", "dueAt"]);
  expect(got).toEqual(expected);
  expect(got.meta).toEqual({ tags: ["a"] });
});

test("an inner join's objects map as drizzle maps them (no table of it can be null)", async () => {
  const expected = await db.select({ thing: things, owner: owners }).from(things).innerJoin(owners, eq(owners.id, things.ownerId));
  const got = await innerPrepared(db, {});
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  expect(got).toHaveLength(1);
  expect(got[0].owner.name).toBe("ada");
});
