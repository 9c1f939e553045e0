import { call } from "@collab/core";
import { onStorage, Repositories, ZERO_SHA } from "@collab/repositories-contract";
import { startApp } from "@collab/standalone/test/app";
import { createProject, createUser, eventually, GitClient, ProjectClone, watchEvents, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";

/**
 * A push's events are never lost: its accepted updates are recorded before git moves a ref, the
 * events are written (and the record removed) before git's answer reaches the client, and a push
 * whose events were not written after its refs moved is announced by the sweep, exactly once.
 */
let app: TestApp;
let git: GitClient;
beforeAll(async () => {
  app = await startApp("push-durability");
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(() => app.reset());

const rows = async <T>(query: ReturnType<typeof sql>) => ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const pending = () => rows<{ updates: { ref: string; newSha: string }[] }>(sql`SELECT updates FROM repositories.pending_pushes`);
const sweep = () => call(app.broker, Repositories.pushes.sweep, {}, onStorage(app.broker, "default"));

/** The event write of every push fails while `run` runs (a trigger refusing the transaction that writes it). */
async function withFailingEventWrites<T>(run: () => Promise<T>): Promise<T> {
  await app.database.db.execute(sql.raw(`CREATE FUNCTION repositories.test_fail_push_finish() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected: the event write fails'; END $$`));
  await app.database.db.execute(sql.raw(`CREATE TRIGGER test_fail_push_finish BEFORE DELETE ON repositories.pending_pushes FOR EACH ROW EXECUTE FUNCTION repositories.test_fail_push_finish()`));
  try {
    return await run();
  } finally {
    await app.database.db.execute(sql.raw(`DROP TRIGGER IF EXISTS test_fail_push_finish ON repositories.pending_pushes`));
    await app.database.db.execute(sql.raw(`DROP FUNCTION IF EXISTS repositories.test_fail_push_finish()`));
  }
}

test("when git tells the client the push went through, its events are written: nothing is left pending", async () => {
  const alice = await createUser(app, "alice");
  const project = await createProject(alice.api, { name: "durable", visibility: "private", initialize_with_readme: true });
  const watch = await watchEvents(app, [Repositories.events.branchPushed]);
  try {
    const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, alice);
    const sha = await clone.commit("topic", "Add topic", { from: "origin/main" });
    await clone.pushOk("topic");
    // The record of the push is removed in the transaction that writes its events.
    expect(await pending()).toEqual([]);
    await eventually(() => expect(watch.seen.map((e) => e.payload)).toEqual([expect.objectContaining({ projectId: project.id, branch: "topic", before: ZERO_SHA, after: sha, totalCommitsCount: 1 })]));
  } finally {
    await watch.stop();
  }
});

test("a push whose event write failed after its ref moved (injected) is announced by the sweep once its session's hold runs out, exactly once", async () => {
  const alice = await createUser(app, "alice");
  const project = await createProject(alice.api, { name: "lost", visibility: "private", initialize_with_readme: true });
  const watch = await watchEvents(app, [Repositories.events.branchPushed]);
  try {
    const clone = await ProjectClone.of(git, app.url, project.path_with_namespace, alice);
    const sha = await clone.commit("main", "Nearly lost");
    await withFailingEventWrites(() => clone.pushOk("main"));
    // The ref moved; the push is still recorded, held by its (finished) session for a while.
    expect((await clone.run(["ls-remote", "origin", "refs/heads/main"])).split("\t")[0]).toBe(sha);
    expect(await pending()).toEqual([{ updates: [expect.objectContaining({ ref: "refs/heads/main", newSha: sha })] }]);
    expect(await sweep()).toEqual({ events: 0 });

    await app.database.db.execute(sql`UPDATE repositories.pending_pushes SET held_until = now() - interval '1 second'`);
    expect(await sweep()).toEqual({ events: 1 });
    expect(await sweep()).toEqual({ events: 0 });
    expect(await pending()).toEqual([]);
    await eventually(() => expect(watch.seen.map((e) => e.payload)).toEqual([expect.objectContaining({ projectId: project.id, branch: "main", after: sha, userUsername: "alice", commits: [expect.objectContaining({ id: sha, title: "Nearly lost" })] })]));
    // Nothing more arrives: the next push's events only.
    const next = await clone.commit("main", "After");
    await clone.pushOk("main");
    await eventually(() => expect(watch.seen.map((e) => e.payload.after)).toEqual([sha, next]));
  } finally {
    await watch.stop();
  }
});
