import { openDatabase } from "./database";
import { createScratchDatabase, testDatabaseServer } from "./testing";

describe("openDatabase", () => {
  test("without a URL it refuses, saying what a service alone needs", async () => {
    await expect(openDatabase(undefined)).rejects.toThrow(/DATABASE_URL is not set/);
  });

  test("one pool per URL: the last release closes it, a later open gets a new one", async () => {
    const scratch = await createScratchDatabase(testDatabaseServer(), "open-database");
    try {
      const a = await openDatabase(scratch.url);
      const b = await openDatabase(scratch.url);
      expect(a.db).toBe(b.db);
      await a.release();
      await a.release(); // a second release of the same reference changes nothing
      await b.ping(); // still open: b holds it
      await b.release();
      const c = await openDatabase(scratch.url);
      expect(c.db).not.toBe(a.db);
      await c.ping();
      await c.release();
    } finally {
      await scratch.drop();
    }
  });
});
