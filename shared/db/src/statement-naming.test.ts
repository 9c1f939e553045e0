import pg from "pg";
import { MAX_NAMED_PER_CONNECTION, NamingClient, statementName } from "./statement-naming";
import { preparedByShape } from "./prepared";
import type { Db } from "./database";

describe("NamingClient", () => {
  let sent: unknown[];
  beforeEach(() => {
    sent = [];
    jest.spyOn(pg.Client.prototype, "query").mockImplementation(((config: unknown) => {
      sent.push(config);
      return Promise.resolve({ rows: [] });
    }) as never);
  });
  afterEach(() => jest.restoreAllMocks());

  const nameSent = (i: number) => (sent[i] as { name?: string }).name;

  test("names a parameterised data statement by its text: the same on every call and connection", async () => {
    const a = new NamingClient();
    const b = new NamingClient();
    const text = 'select "id" from "issues"."issues" where "id" = $1';
    await a.query({ text }, [1]);
    await a.query({ text }, [2]);
    await b.query({ text, rowMode: "array" }, [3]);
    await a.query({ text: 'update "t" set "x" = $1' }, [1]);
    expect([nameSent(0), nameSent(1), nameSent(2)]).toEqual(Array(3).fill(statementName(text)));
    expect((sent[2] as { rowMode: string }).rowMode).toBe("array");
    expect(nameSent(3)).not.toBe(nameSent(0));
  });

  test("leaves alone statements without parameters, utility statements, plain strings and named ones", async () => {
    const c = new NamingClient();
    await c.query({ text: "select 1" }, []);
    await c.query({ text: "begin" }, undefined as never);
    await c.query({ text: "create index x on t (a) where b = $1" }, [1]);
    await c.query("select $1::int", [1]);
    await c.query({ name: "mine", text: "select $1::int" }, [1]);
    expect(sent.slice(0, 3).map((q) => (q as { name?: string }).name)).toEqual([undefined, undefined, undefined]);
    expect(sent[3]).toBe("select $1::int");
    expect(nameSent(4)).toBe("mine");
  });

  test("prepares at most MAX_NAMED_PER_CONNECTION texts per connection, and keeps running those", async () => {
    const c = new NamingClient();
    for (let i = 0; i < MAX_NAMED_PER_CONNECTION; i++) await c.query({ text: `select $1::int + ${i}` }, [1]);
    await c.query({ text: "select $1::int + -1" }, [1]);
    await c.query({ text: "select $1::int + 0" }, [1]);
    expect(nameSent(MAX_NAMED_PER_CONNECTION)).toBeUndefined();
    expect(nameSent(MAX_NAMED_PER_CONNECTION + 1)).toBe(statementName("select $1::int + 0"));
  });
});

describe("preparedByShape", () => {
  test("builds one statement per shape and database handle, each with its own name", async () => {
    const built: string[] = [];
    const run = preparedByShape(
      (s: { sort: string }) => s.sort,
      (_db, s, name) => {
        built.push(`${s.sort}:${name}`);
        return { execute: async (p: { id: number }) => `${s.sort} ${p.id}` };
      },
    );
    const db1 = {} as Db;
    const db2 = {} as Db;
    expect(await run(db1, { sort: "asc" }, { id: 1 })).toBe("asc 1");
    expect(await run(db1, { sort: "asc" }, { id: 2 })).toBe("asc 2");
    expect(await run(db1, { sort: "desc" }, { id: 3 })).toBe("desc 3");
    expect(await run(db2, { sort: "asc" }, { id: 4 })).toBe("asc 4");
    expect(built).toHaveLength(3);
    const names = built.map((b) => b.split(":")[1]);
    expect(names[0]).not.toBe(names[1]);
    expect(names[0]).toBe(names[2]);
  });
});
