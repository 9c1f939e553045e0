import type { Announcement, Db, ServiceKit } from "@collab/db";
import { openScratchDatabase, type Database } from "@collab/db";
import { importCommits, initBareRepository } from "@collab/git";
import { Repositories, ZERO_SHA } from "@collab/repositories-contract";
import { eq, sql } from "drizzle-orm";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pendingPushes, repositories } from "../db/schema";
import { LocalStorages } from "../domain/storages";
import { finishPush, recordPush, sweepPendingPushes } from "./pending-pushes";

/**
 * A push recorded by its pre-receive check whose events were never written (the process died
 * after git moved the ref, or the write failed) is announced by the sweep once its session's
 * hold has run out: exactly once, for the refs that hold the pushed value only.
 */
let database: Database;
let dispose: () => Promise<void>;
let root: string;
let storages: LocalStorages;
let announced: Announcement[] = [];
let failWrites = false;

/** The service's bus as far as a push needs it: the events a transaction announces, kept here once it commits. */
const events = {
  transact: async <T>(change: (tx: Db) => Promise<T>, announce: (result: T) => Announcement[]) => {
    if (failWrites) throw new Error("injected: the event write fails");
    const batch: Announcement[] = [];
    const result = await database.db.transaction(async (tx) => {
      const r = await change(tx);
      batch.push(...announce(r));
      return r;
    });
    announced.push(...batch);
    return result;
  },
};
const logger = { warn: () => undefined, error: () => undefined, info: () => undefined };
const kit = () => ({ db: database.db, events, logger, baseUrl: "http://collab.test" }) as unknown as ServiceKit;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("repositories-pending-pushes"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_repositories_test" });
  root = await mkdtemp(path.join(tmpdir(), "collab-pending-"));
  storages = new LocalStorages(() => `default:${root}`);
}, 120_000);
afterAll(async () => {
  await dispose?.();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  announced = [];
  failWrites = false;
  await database.db.delete(pendingPushes);
  await database.db.delete(repositories);
});

let repos = 0;
/** A project's repository with `main` and a `topic` branch one commit ahead: as after git applied a push of `topic`. */
async function pushedRepository() {
  const diskPath = `p${++repos}.git`;
  const dir = await initBareRepository(path.join(root, diskPath));
  const [, topic] = await importCommits(dir, [{ message: "First" }, { branch: "topic", message: "Add totals\n\nPROJ-1", from: 0 }]);
  const [row] = await database.db.insert(repositories).values({ containerKind: "project", containerId: repos, storage: "default", diskPath }).returning();
  const push = {
    repositoryId: row.id,
    project: { id: repos, path_with_namespace: `team/p${repos}` },
    pusher: { id: 7, username: "alice" },
    // `ghost` was accepted by the check but git never moved it (refused later, or the process died first).
    updates: [
      { ref: "refs/heads/topic", oldSha: ZERO_SHA, newSha: topic },
      { ref: "refs/heads/ghost", oldSha: ZERO_SHA, newSha: topic },
    ],
  };
  return { dir, topic, push };
}

/** The session is gone: its hold on the row ran out. */
const expireHolds = () => database.db.update(pendingPushes).set({ heldUntil: sql`now() - interval '1 second'` });
const pendingRows = () => database.db.select().from(pendingPushes);

test("the sweep leaves a held push alone, then announces an abandoned one once, for the refs git moved", async () => {
  const { topic, push } = await pushedRepository();
  await recordPush(kit(), push);

  // Its session still holds it: receive-pack may be running.
  expect(await sweepPendingPushes(kit(), storages)).toBe(0);
  expect(await pendingRows()).toHaveLength(1);

  await expireHolds();
  expect(await sweepPendingPushes(kit(), storages)).toBe(1);
  expect(announced).toEqual([
    [
      Repositories.events.branchPushed.name,
      expect.objectContaining({
        projectId: push.project.id,
        branch: "topic",
        before: ZERO_SHA,
        after: topic,
        userId: 7,
        userUsername: "alice",
        totalCommitsCount: 1,
        commitTitle: "Add totals",
        commits: [expect.objectContaining({ id: topic, title: "Add totals", url: `http://collab.test/team/p${push.project.id}/-/commit/${topic}` })],
      }),
    ],
  ]);
  expect(await pendingRows()).toEqual([]);

  // Idempotent: a second sweep finds nothing.
  expect(await sweepPendingPushes(kit(), storages)).toBe(0);
  expect(announced).toHaveLength(1);
});

test("a failed event write after git moved the ref (injected) leaves the push to the sweep, which publishes it exactly once", async () => {
  const { dir, push } = await pushedRepository();
  const id = await recordPush(kit(), push);
  const row = { id, projectId: push.project.id, projectPath: push.project.path_with_namespace, userId: 7, userUsername: "alice", updates: push.updates };

  failWrites = true;
  await expect(finishPush(kit(), dir, row)).rejects.toThrow("injected");
  failWrites = false;
  expect(await pendingRows()).toHaveLength(1);
  expect(announced).toEqual([]);

  await expireHolds();
  expect(await sweepPendingPushes(kit(), storages)).toBe(1);
  // The session finishing late (its retry, or a second sweep) announces nothing more.
  expect(await finishPush(kit(), dir, row)).toBe(0);
  expect(await sweepPendingPushes(kit(), storages)).toBe(0);
  expect(announced.map(([name]) => name)).toEqual([Repositories.events.branchPushed.name]);
});

test("a push none of whose refs moved is dropped without an event; another storage's rows are left to its replica", async () => {
  const { push } = await pushedRepository();
  await recordPush(kit(), { ...push, updates: [push.updates[1]] });
  const elsewhere = await pushedRepository();
  await database.db.update(repositories).set({ storage: "other" }).where(eq(repositories.id, elsewhere.push.repositoryId));
  await recordPush(kit(), elsewhere.push);
  await expireHolds();

  expect(await sweepPendingPushes(kit(), storages)).toBe(0);
  expect(announced).toEqual([]);
  expect((await pendingRows()).map((r) => r.repositoryId)).toEqual([elsewhere.push.repositoryId]);
});
