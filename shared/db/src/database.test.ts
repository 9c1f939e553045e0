import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "./database";

describe("openDatabase with PGlite on disk", () => {
  test("creates missing parent folders, as on a fresh checkout (./data/pglite)", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "collab-db-"));
    const dataDir = path.join(root, "data", "pglite");
    try {
      const db = await openDatabase({ dataDir });
      await db.ping();
      expect(existsSync(dataDir)).toBe(true);
      await db.release();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
