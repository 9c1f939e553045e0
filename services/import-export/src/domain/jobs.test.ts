import { openScratchDatabase, type Database } from "@collab/db";
import { sql } from "drizzle-orm";
import path from "node:path";
import { groupExports } from "../db/schema";
import { claimExport, claimImport, endImport, failExport, finishExport, findArchive, MAX_ATTEMPTS, recordImport, requestExport, saveImportProgress } from "./jobs";
import { batches, BATCH, BATCH_BYTES } from "./worker";

/** The job tables' state machine on a scratch database with this service's migrations. */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("import-export-jobs"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_import-export" });
});
afterAll(() => dispose?.());
beforeEach(() => database.db.execute(sql`TRUNCATE import_export.group_exports, import_export.group_imports RESTART IDENTITY`));

const stateOf = async (id: number) => (await database.db.select().from(groupExports).where(sql`id = ${id}`))[0];

describe("export jobs", () => {
  it("one row per group and user; a claim is taken once and finishes only as the claim it was", async () => {
    const db = database.db;
    await requestExport(db, 1, 7);
    await requestExport(db, 1, 7);
    await requestExport(db, 1, 8);
    const first = (await claimExport(db))!;
    const second = (await claimExport(db))!;
    expect([first.userId, second.userId]).toEqual([7, 8]);
    expect(await claimExport(db)).toBeUndefined();

    expect(await finishExport(db, first, Buffer.from([1, 2, 3]), "a.tar.gz")).toBe(true);
    const found = await findArchive(db, 1, 7);
    expect(found).toEqual({ archive: Buffer.from([1, 2, 3]), filename: "a.tar.gz", archiveSize: 3 });
    expect(Buffer.isBuffer(found!.archive)).toBe(true);

    // Re-requested while the worker runs: that worker's result is dropped, the new claim wins.
    await requestExport(db, 1, 8);
    expect(await finishExport(db, second, Buffer.from([9]), "old.tar.gz")).toBe(false);
    const again = (await claimExport(db))!;
    expect(again.attempts).toBe(second.attempts + 1);
    expect(await finishExport(db, second, Buffer.from([9]), "old.tar.gz")).toBe(false);
    expect(await finishExport(db, again, Buffer.from([8]), "new.tar.gz")).toBe(true);
    expect((await findArchive(db, 1, 8))?.filename).toBe("new.tar.gz");
  });

  it("keeps the archive until a new export starts, then serves nothing until it is done", async () => {
    const db = database.db;
    await requestExport(db, 1, 7);
    await finishExport(db, (await claimExport(db))!, Buffer.from("x"), "x.tar.gz");
    await requestExport(db, 1, 7);
    expect((await findArchive(db, 1, 7))?.filename).toBe("x.tar.gz");
    await claimExport(db);
    expect(await findArchive(db, 1, 7)).toBeUndefined();
  });

  it("retries counted failures a few times, in later steps; refusals fail at once", async () => {
    const db = database.db;
    await requestExport(db, 1, 7);
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      const claim = (await claimExport(db))!;
      await failExport(db, claim, "connection reset", "counted");
      expect((await stateOf(claim.id)).state).toBe("queued");
      // A step does not take again what it already handled.
      expect(await claimExport(db, [claim.id])).toBeUndefined();
    }
    const last = (await claimExport(db))!;
    await failExport(db, last, "connection reset", "counted");
    expect(await stateOf(last.id)).toMatchObject({ state: "failed", errorMessage: "connection reset", retries: MAX_ATTEMPTS });

    await requestExport(db, 2, 7);
    const claim = (await claimExport(db))!;
    await failExport(db, claim, "404 Group Not Found", "permanent");
    expect(await stateOf(claim.id)).toMatchObject({ state: "failed", retries: 0 });
    // A new request starts over.
    await requestExport(db, 1, 7);
    expect(await stateOf(last.id)).toMatchObject({ state: "queued", retries: 0, errorMessage: null });
  });

  it("waits, however often, when a call got no answer: never failed for it, nor counted", async () => {
    const db = database.db;
    await requestExport(db, 1, 7);
    for (let i = 0; i < MAX_ATTEMPTS * 3; i++) {
      const claim = (await claimExport(db))!;
      await failExport(db, claim, "namespaces.groups.tree got no answer", "unanswered");
      expect(await stateOf(claim.id)).toMatchObject({ state: "queued", retries: 0, errorMessage: "namespaces.groups.tree got no answer", finishedAt: null });
    }
  });

  it("claims a row whose worker died (started long ago) again", async () => {
    const db = database.db;
    await requestExport(db, 1, 7);
    const claim = (await claimExport(db))!;
    expect(await claimExport(db)).toBeUndefined();
    await db.execute(sql`UPDATE import_export.group_exports SET updated_at = now() - interval '1 hour'`);
    const reclaimed = (await claimExport(db))!;
    expect(reclaimed.id).toBe(claim.id);
    expect(await finishExport(db, claim, Buffer.from("late"), "late.tar.gz")).toBe(false);
  });
});

describe("import jobs", () => {
  it("drop the uploaded archive once done, failed or finished", async () => {
    const db = database.db;
    const importer = { id: 7, username: "alice", admin: false };
    await recordImport(db, { groupId: 1, importer, archive: Buffer.from("a"), filename: "a.tar.gz" });
    await recordImport(db, { groupId: 2, importer, archive: Buffer.from("b"), filename: "b.tar.gz" });
    const a = (await claimImport(db))!;
    const b = (await claimImport(db))!;
    expect([a.groupId, a.archive?.toString(), b.groupId]).toEqual([1, "a", 2]);
    await endImport(db, a, { statistics: { groups: 0 } });
    await endImport(db, b, { error: "Invalid archive", failure: "permanent" });
    const rows = (await db.execute(sql`SELECT state, archive, statistics, error_message FROM import_export.group_imports ORDER BY id`)) as unknown as { rows: unknown[] };
    expect(rows.rows).toEqual([
      { state: "finished", archive: null, statistics: { groups: 0 }, error_message: null },
      { state: "failed", archive: null, statistics: null, error_message: "Invalid archive" },
    ]);
  });
  it("keep the archive and progress while waiting for a later step; fail after MAX_ATTEMPTS counted failures", async () => {
    const db = database.db;
    const importer = { id: 7, username: "alice", admin: false };
    const row = await recordImport(db, { groupId: 1, importer, archive: Buffer.from("a"), filename: "a.tar.gz" });
    const first = (await claimImport(db))!;
    const progress = { calls: 2, ids: { "10": 1 }, stats: { groups: 0, labels: 1, milestones: 0, members: 0, skipped: 0 } };
    expect(await saveImportProgress(db, first, progress)).toBe(true);
    await endImport(db, first, { error: "no answer", failure: "unanswered" });
    for (let i = 0; i < MAX_ATTEMPTS * 2; i++) await endImport(db, (await claimImport(db))!, { error: "no answer", failure: "unanswered" });
    const waiting = (await claimImport(db))!;
    expect(waiting).toMatchObject({ archive: Buffer.from("a"), progress });
    // A claim taken over stops recording.
    expect(await saveImportProgress(db, first, progress)).toBe(false);
    await endImport(db, waiting, { error: "connection reset", failure: "counted" });
    for (let i = 1; i < MAX_ATTEMPTS; i++) await endImport(db, (await claimImport(db))!, { error: "connection reset", failure: "counted" });
    const rows = (await db.execute(sql`SELECT state, archive, retries FROM import_export.group_imports WHERE id = ${row.id}`)) as unknown as { rows: unknown[] };
    expect(rows.rows).toEqual([{ state: "failed", archive: null, retries: MAX_ATTEMPTS }]);
  });
});

describe("batches", () => {
  it("cuts lists at BATCH records and about BATCH_BYTES of JSON", () => {
    expect(batches([])).toEqual([]);
    expect(batches(Array.from({ length: BATCH * 2 + 1 }, (_, i) => i)).map((b) => b.length)).toEqual([BATCH, BATCH, 1]);
    const big = "x".repeat(BATCH_BYTES / 2);
    expect(batches([big, big, big, "y"]).map((b) => b.length)).toEqual([1, 1, 2]);
  });
});
