import pg from "pg";
import { NamingClient } from "./statement-naming";
import { createScratchDatabase, testDatabaseServer } from "./testing";

// A query that outlives the client's read timeout (as on a half-open socket: no answer ever comes)
// must not leave its connection in the pool: the next query would queue behind the lost one.
let scratch: { url: string; drop: () => Promise<void> };
beforeAll(async () => {
  scratch = await createScratchDatabase(testDatabaseServer(), "read-timeout");
});
afterAll(() => scratch.drop());

test("a read timeout closes the connection, the pool drops it, and the next query runs on a new one", async () => {
  const pool = new pg.Pool({ connectionString: scratch.url, max: 1, Client: NamingClient, query_timeout: 300 });
  pool.on("error", () => undefined);
  pool.on("connect", (client) => void client.on("error", () => undefined));
  try {
    const first = (await pool.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
    await expect(pool.query("SELECT pg_sleep(5)")).rejects.toThrow("Query read timeout");
    const started = Date.now();
    const next = (await pool.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
    expect(next).not.toBe(first); // a new connection: the timed-out one is gone
    expect(Date.now() - started).toBeLessThan(2_000); // not queued behind the sleeping query
  } finally {
    await pool.end();
  }
});
