import { notFound } from "@collab/core";
import { openScratchDatabase, type Database } from "@collab/db";
import { eq, sql } from "drizzle-orm";
import { Errors } from "moleculer";
import path from "node:path";
import { storageMoves } from "../db/schema";
import { scheduleMoves, tick, type Call } from "./storage-moves";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * The storage-move worker against the service's migrated tables and a namespaces stand-in whose
 * calls can get no answer: before they act (namespaces down) or after (the answer lost on the way).
 */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("admin-storage-moves"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_admin" });
});
afterAll(() => dispose?.());
beforeEach(() => database.db.execute(sql`TRUNCATE admin.repository_storage_moves RESTART IDENTITY`));

/** namespaces.storage.* over an in-memory table of projects. */
function fakeNamespaces() {
  const projects = new Map<number, { storage: string; readOnly: boolean }>();
  let mode: "up" | "down" | "answer lost" = "up";
  const calls: string[] = [];
  const act = (action: string, p: Record<string, unknown>): unknown => {
    if (action === Namespaces.storage.state.name) {
      const found = projects.get(Number(p.ref));
      if (!found) throw notFound("Project");
      return { id: Number(p.ref), repository_storage: found.storage, repository_read_only: found.readOnly };
    }
    if (action === Namespaces.storage.setState.name) {
      const changed: number[] = [];
      for (const id of p.ids as number[]) {
        const row = projects.get(id);
        if (!row) continue;
        if (p.expect_writable && row.readOnly) continue;
        if (p.locked_on !== undefined && !(row.readOnly && row.storage === p.locked_on)) continue;
        row.readOnly = p.read_only as boolean;
        if (p.storage !== undefined) row.storage = p.storage as string;
        changed.push(id);
      }
      return changed;
    }
    throw new Error(`unexpected call ${action}`);
  };
  const call: Call = async <T,>(action: string, params: object) => {
    calls.push(action);
    const timeout = new Errors.RequestTimeoutError({ action, nodeID: "namespaces-1" });
    if (mode === "down") throw timeout;
    const answer = act(action, params as Record<string, unknown>);
    if (mode === "answer lost") throw timeout;
    return answer as T;
  };
  return {
    projects,
    calls,
    call,
    set mode(m: typeof mode) {
      mode = m;
    },
  };
}

const moveOf = async (id: number) => (await database.db.select().from(storageMoves).where(eq(storageMoves.id, id)))[0];
const schedule = (ns: ReturnType<typeof fakeNamespaces>, projectId: number) =>
  scheduleMoves(database.db, ns.call, "project", [{ id: projectId, source: "default" }], () => "ssd");

describe("a move's switch", () => {
  it("that gets no answer leaves the move started (saying why) and the project read-only; a later tick finishes it, writable on its new storage", async () => {
    const ns = fakeNamespaces();
    ns.projects.set(1, { storage: "default", readOnly: false });
    const [move] = await schedule(ns, 1);
    expect(move.state).toBe("scheduled");
    expect(ns.projects.get(1)).toEqual({ storage: "default", readOnly: true });

    await tick(database.db, ns.call);
    expect((await moveOf(move.id)).state).toBe("started");

    ns.mode = "down";
    for (let i = 0; i < 3; i++) await tick(database.db, ns.call);
    const waiting = await moveOf(move.id);
    expect(waiting.state).toBe("started");
    expect(waiting.errorMessage).toMatch(/timed out.*retrying/);
    expect(ns.projects.get(1)).toEqual({ storage: "default", readOnly: true });

    ns.mode = "up";
    await tick(database.db, ns.call);
    expect(await moveOf(move.id)).toMatchObject({ state: "finished", errorMessage: null });
    expect(ns.projects.get(1)).toEqual({ storage: "ssd", readOnly: false });
  });

  it("whose answer was lost is confirmed by the next tick, which never lifts a lock taken since", async () => {
    const ns = fakeNamespaces();
    ns.projects.set(1, { storage: "default", readOnly: false });
    const [move] = await schedule(ns, 1);
    await tick(database.db, ns.call);

    ns.mode = "answer lost";
    await tick(database.db, ns.call);
    expect((await moveOf(move.id)).state).toBe("started");
    expect(ns.projects.get(1)).toEqual({ storage: "ssd", readOnly: false });

    // Meanwhile the project was locked again (a move asked for while the first waits for its record).
    ns.projects.get(1)!.readOnly = true;
    ns.mode = "up";
    await tick(database.db, ns.call);
    expect((await moveOf(move.id)).state).toBe("finished");
    expect(ns.projects.get(1)).toEqual({ storage: "ssd", readOnly: true });
  });

  it("fails the move when the project is gone (a real answer), and only then", async () => {
    const ns = fakeNamespaces();
    ns.projects.set(1, { storage: "default", readOnly: false });
    const [move] = await schedule(ns, 1);
    await tick(database.db, ns.call);
    ns.projects.delete(1);
    await tick(database.db, ns.call);
    expect(await moveOf(move.id)).toMatchObject({ state: "failed", errorMessage: "container no longer exists" });
  });

  it("is done once when replicas tick together", async () => {
    const ns = fakeNamespaces();
    for (const id of [1, 2, 3]) ns.projects.set(id, { storage: "default", readOnly: false });
    const moves = await scheduleMoves(database.db, ns.call, "project", [1, 2, 3].map((id) => ({ id, source: "default" })), () => "ssd");
    await tick(database.db, ns.call);
    const advanced = await Promise.all([tick(database.db, ns.call), tick(database.db, ns.call), tick(database.db, ns.call)]);
    // Each move switched (→ replicated) and cleaned up (→ finished) once: two steps, whoever took them.
    expect(advanced.reduce((a, b) => a + b, 0)).toBe(6);
    for (const m of moves) expect((await moveOf(m.id)).state).toBe("finished");
    expect([...ns.projects.values()]).toEqual([1, 2, 3].map(() => ({ storage: "ssd", readOnly: false })));
  });
});

describe("scheduling a move", () => {
  it("whose lock gets no answer keeps the move (initial); the worker schedules and finishes it once the request is surely over", async () => {
    const ns = fakeNamespaces();
    ns.projects.set(1, { storage: "default", readOnly: false });
    ns.mode = "answer lost";
    const [move] = await schedule(ns, 1);
    expect(move.state).toBe("initial");
    expect(ns.projects.get(1)!.readOnly).toBe(true);

    ns.mode = "up";
    // Still within its request's time: left alone.
    await tick(database.db, ns.call);
    expect((await moveOf(move.id)).state).toBe("initial");

    await database.db.execute(sql`UPDATE admin.repository_storage_moves SET created_at = now() - interval '10 minutes'`);
    await tick(database.db, ns.call);
    expect((await moveOf(move.id)).state).toBe("scheduled");
    await tick(database.db, ns.call);
    await tick(database.db, ns.call);
    expect((await moveOf(move.id)).state).toBe("finished");
    expect(ns.projects.get(1)).toEqual({ storage: "ssd", readOnly: false });
  });

  it("of a project already moving records nothing; one whose lock was refused for good records nothing either", async () => {
    const ns = fakeNamespaces();
    ns.projects.set(1, { storage: "default", readOnly: false });
    const [first] = await schedule(ns, 1);
    expect(await schedule(ns, 1)).toEqual([]);
    expect(await database.db.select().from(storageMoves)).toEqual([expect.objectContaining({ id: first.id, state: "scheduled" })]);

    const refusing: Call = async () => {
      throw notFound("Project");
    };
    await expect(scheduleMoves(database.db, refusing, "project", [{ id: 2, source: "default" }], () => "ssd")).rejects.toThrow("404 Project Not Found");
    expect(await database.db.select().from(storageMoves)).toHaveLength(1);
  });

  it("waits (initial) while another move still holds the project, then goes on", async () => {
    const ns = fakeNamespaces();
    ns.projects.set(1, { storage: "default", readOnly: false });
    const [first] = await schedule(ns, 1);
    await tick(database.db, ns.call);
    // The first move's switch went through but is not recorded yet: a second move locks the project.
    ns.mode = "answer lost";
    await tick(database.db, ns.call);
    ns.mode = "up";
    const [second] = await scheduleMoves(database.db, ns.call, "project", [{ id: 1, source: "ssd" }], () => "default");
    expect(second.state).toBe("initial");

    await database.db.execute(sql`UPDATE admin.repository_storage_moves SET created_at = now() - interval '10 minutes'`);
    await tick(database.db, ns.call);
    expect((await moveOf(first.id)).state).toBe("finished");
    expect((await moveOf(second.id)).state).toBe("scheduled");
    for (let i = 0; i < 2; i++) await tick(database.db, ns.call);
    expect((await moveOf(second.id)).state).toBe("finished");
    expect(ns.projects.get(1)).toEqual({ storage: "default", readOnly: false });
  });
});
