import { sql } from "drizzle-orm";
import type { Database } from "./database";
import { openScratchDatabase, truncateAll } from "./testing";

// truncateAll between tests: every row gone and every sequence back at its start, whether its
// table holds rows, was emptied by the test itself, or the sequence belongs to no table.
let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("truncate-all"));
  await database.db.execute(sql`CREATE SCHEMA app`);
  await database.db.execute(sql`CREATE TABLE app.parents (id serial PRIMARY KEY, name text)`);
  await database.db.execute(sql`CREATE TABLE app.children (id bigserial PRIMARY KEY, parent_id int REFERENCES app.parents (id))`);
  await database.db.execute(sql`CREATE TABLE app.emptied (id serial PRIMARY KEY)`);
  await database.db.execute(sql`CREATE SEQUENCE app.counter START 100`);
});
afterAll(() => dispose());

const rows = async (query: ReturnType<typeof sql>) => (await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };

test("empties the tables with rows and restarts every sequence used", async () => {
  for (let round = 0; round < 2; round++) {
    await database.db.execute(sql`INSERT INTO app.parents (name) VALUES ('a'), ('b')`);
    await database.db.execute(sql`INSERT INTO app.children (parent_id) VALUES (1), (2)`);
    await database.db.execute(sql`INSERT INTO app.emptied DEFAULT VALUES`);
    await database.db.execute(sql`DELETE FROM app.emptied`);
    expect((await rows(sql`SELECT nextval('app.counter') AS n`)).rows).toEqual([{ n: 100 }]);
    // The same ids each round: the previous truncation restarted them.
    expect((await rows(sql`SELECT id FROM app.parents ORDER BY id`)).rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await rows(sql`INSERT INTO app.emptied DEFAULT VALUES RETURNING id`)).rows).toEqual([{ id: 2 }]);
    await truncateAll(database.db);
    expect((await rows(sql`SELECT (SELECT count(*) FROM app.parents) + (SELECT count(*) FROM app.children) + (SELECT count(*) FROM app.emptied) AS n`)).rows).toEqual([{ n: 0 }]);
  }
});
