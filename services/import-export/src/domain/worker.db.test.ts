import { groupAttributes } from "../archive/group-attributes.fixture";
import { badRequestMessage, notFound, resetSettings } from "@collab/core";
import { openScratchDatabase, type Database } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { eq, sql } from "drizzle-orm";
import { Errors } from "moleculer";
import path from "node:path";
import { buildArchive, type ExportGroup, type GroupAttributes } from "../archive/format";
import { groupExports, groupImports, vulnerabilityExports } from "../db/schema";
import { createExport } from "../vulnerability-exports/jobs";
import { tickVulnerabilityExports } from "../vulnerability-exports/worker";
import { findArchive, MAX_ATTEMPTS, recordImport, requestExport } from "./jobs";
import { tick, type Call } from "./worker";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * The import-export workers against the service's migrated tables and a namespaces (and runners)
 * stand-in whose calls can get no answer: before they act (the service down) or after (the answer
 * lost on the way), or never (a worker that dies waiting).
 */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  resetSettings(); // GitLab's defaults, given explicitly (no admin service here)
  ({ database, dispose } = await openScratchDatabase("import-export-worker"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_import-export" });
});
afterAll(() => dispose?.());
beforeEach(() => database.db.execute(sql`TRUNCATE import_export.group_exports, import_export.group_imports, import_export.vulnerability_exports RESTART IDENTITY`));

type Outage = "down" | "answer lost" | "hang";
interface Group {
  id: number;
  parent_id: number | null;
  path: string;
  labels: string[];
}

/** namespaces' group tree actions and runners' vulnerability list over in-memory groups. */
function fakeServices() {
  const groups = new Map<number, Group>([[100, { id: 100, parent_id: null, path: "imported", labels: [] }]]);
  let nextId = 101;
  const calls: string[] = [];
  /** Outages by call number (0-based, counted over every call made). */
  const outages = new Map<number, Outage>();
  let down = false;
  const hung: (() => void)[] = [];
  const fullPath = (g: Group): string => (g.parent_id === null ? g.path : `${fullPath(groups.get(g.parent_id)!)}/${g.path}`);
  const below = (id: number): Group[] => [...groups.values()].filter((g) => g.parent_id === id).flatMap((g) => [g, ...below(g.id)]);

  const act = (action: string, p: Record<string, unknown>): unknown => {
    switch (action) {
      case Namespaces.groups.tree.name: {
        const root = groups.get(p.group_id as number);
        if (!root) throw notFound("Group");
        return [root, ...below(root.id)].map((g) => ({ id: g.id, parent_id: g === root ? null : g.parent_id, full_path: fullPath(g), created_at: null, updated_at: null, attributes: attributes(g.path) }));
      }
      case Namespaces.groups.relationPage.name: {
        const g = groups.get(p.group_id as number)!;
        if (p.relation !== "labels" || (p.after as number) > 0) return [];
        return g.labels.map((title, i) => ({ id: i + 1, title, color: "#ff0000", description: null, created_at: null, updated_at: null }));
      }
      case Namespaces.groups.createOrUpdateFromAttributes.name: {
        const a = p.attributes as { path: string };
        if (p.group_id !== undefined) return { id: p.group_id };
        if ([...groups.values()].some((g) => g.parent_id === p.parent_id && g.path === a.path)) throw badRequestMessage({ path: ["has already been taken"] });
        const g = { id: nextId++, parent_id: p.parent_id as number, path: a.path, labels: [] };
        groups.set(g.id, g);
        return { id: g.id, full_path: fullPath(g) };
      }
      case Namespaces.groups.addRelations.name: {
        const g = groups.get(p.group_id as number)!;
        const counts = { labels: 0, milestones: 0, members: 0, skipped: 0 };
        for (const l of (p.labels as { title: string }[] | undefined) ?? []) {
          if (g.labels.includes(l.title)) counts.skipped++;
          else (g.labels.push(l.title), counts.labels++);
        }
        return counts;
      }
      case Namespaces.projects.summaries.name:
        return [{ id: 5, name: "app", path_with_namespace: "team/app", namespace_name: "team", namespace_kind: "group" }];
      case Runners.vulnerabilities.list.name:
        return [];
    }
    throw new Error(`unexpected call ${action}`);
  };
  const call: Call = async <T,>(action: string, params: object) => {
    const outage = down ? "down" : outages.get(calls.length);
    calls.push(action);
    const timeout = new Errors.RequestTimeoutError({ action, nodeID: "namespaces-1" });
    if (outage === "down") throw timeout;
    if (outage === "hang") await new Promise<void>((r) => hung.push(r));
    const answer = act(action, params as Record<string, unknown>);
    if (outage === "answer lost") throw timeout;
    return answer as T;
  };
  return {
    groups,
    calls,
    call,
    outages,
    hung,
    set down(d: boolean) {
      down = d;
    },
    /** The groups under the imported one, by full path, with their labels. */
    tree: () => Object.fromEntries(below(100).map((g) => [fullPath(g), g.labels])),
  };
}

const attributes = (path: string) => groupAttributes(path, path);

/** An archive of root (labels a, b) › sub (label c) › deep (label d). */
function archive(): Buffer {
  const group = (id: number, parent_id: number | null, path: string, labels: string[]): ExportGroup => ({
    id,
    parent_id,
    created_at: null,
    updated_at: null,
    attributes: attributes(path),
    labels: labels.map((title, i) => ({ id: id * 10 + i, title, color: "#ff0000", description: null, created_at: null, updated_at: null })),
    milestones: [],
    members: [],
  });
  return buildArchive([group(10, null, "root", ["a", "b"]), group(11, 10, "sub", ["c"]), group(12, 11, "deep", ["d"])]);
}
// The restore's calls, in order: 0 root settings, 1 root labels, 2 create sub, 3 sub labels, 4 create deep, 5 deep labels.
const CREATE_DEEP = 4;
const RESTORED = { "imported/sub": ["c"], "imported/sub/deep": ["d"] };
const STATISTICS = { groups: 2, labels: 4, milestones: 0, members: 0, skipped: 0 };

const importRow = async () => (await database.db.select().from(groupImports))[0];
const importer = { id: 7, username: "alice", admin: false };

describe("group exports", () => {
  it("whose calls get no answer wait, step after step, and are built once namespaces answers", async () => {
    const ns = fakeServices();
    ns.groups.get(100)!.labels.push("bug");
    await requestExport(database.db, 100, 7);
    ns.down = true;
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) await tick(database.db, ns.call);
    const [waiting] = await database.db.select().from(groupExports);
    expect(waiting).toMatchObject({ state: "queued", retries: 0, finishedAt: null });
    expect(waiting.errorMessage).toMatch(/^namespaces\.groups\.tree got no answer/);

    ns.down = false;
    expect(await tick(database.db, ns.call)).toEqual({ exports: 1, imports: 0 });
    expect((await database.db.select().from(groupExports))[0].state).toBe("finished");
    expect((await findArchive(database.db, 100, 7))?.archive?.length).toBeGreaterThan(0);
  });
});

describe("group imports", () => {
  it("broken halfway by a call that got no answer go on where they stopped: every subgroup made once, every label there, counts right", async () => {
    const ns = fakeServices();
    await recordImport(database.db, { groupId: 100, importer, archive: archive(), filename: "g.tar.gz" });
    // The call creating `deep` goes through, but its answer is lost.
    ns.outages.set(CREATE_DEEP, "answer lost");
    await tick(database.db, ns.call);
    expect(await importRow()).toMatchObject({ state: "queued", retries: 0, progress: { calls: CREATE_DEEP } });
    expect(ns.tree()).toEqual({ "imported/sub": ["c"], "imported/sub/deep": [] });

    await tick(database.db, ns.call);
    expect(await importRow()).toMatchObject({ state: "finished", statistics: STATISTICS, archive: null });
    expect(ns.tree()).toEqual(RESTORED);
    expect(ns.groups.get(100)!.labels).toEqual(["a", "b"]);
    // The second run made only what was left: it found `deep` instead of creating it again.
    expect(ns.calls.slice(CREATE_DEEP + 1)).toEqual([Namespaces.groups.tree.name, Namespaces.groups.addRelations.name]);
  });

  it("whose worker died come back after the lease and go on from their progress; the dead claim writes nothing", async () => {
    const ns = fakeServices();
    await recordImport(database.db, { groupId: 100, importer, archive: archive(), filename: "g.tar.gz" });
    ns.outages.set(3, "hang");
    const dying = tick(database.db, ns.call);
    for (const end = Date.now() + 5000; ns.hung.length === 0 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
    expect(await importRow()).toMatchObject({ state: "started", progress: { calls: 3 } });
    // Not before its lease is over…
    expect(await tick(database.db, ns.call)).toEqual({ exports: 0, imports: 0 });
    await database.db.execute(sql`UPDATE import_export.group_imports SET updated_at = now() - interval '1 hour'`);
    expect(await tick(database.db, ns.call)).toEqual({ exports: 0, imports: 1 });
    expect(await importRow()).toMatchObject({ state: "finished", statistics: STATISTICS, attempts: 2 });
    expect(ns.tree()).toEqual(RESTORED);

    // The first worker wakes up: its call lands (the labels are there already), then it stops.
    const made = ns.calls.length;
    ns.hung.forEach((wake) => wake());
    await dying;
    expect(ns.calls.length).toBe(made);
    expect(await importRow()).toMatchObject({ state: "finished", statistics: STATISTICS });
  });
});

describe("vulnerability exports", () => {
  it("whose calls get no answer stay created, step after step, and are built once the services answer", async () => {
    const ns = fakeServices();
    const deps = { db: database.db, call: ns.call, mailer: () => ({ send: async () => undefined, sendLater: () => undefined, close: () => undefined }), baseUrl: "http://collab.test", warn: () => undefined };
    const row = await createExport(database.db, { authorId: 7, projectId: 5, groupId: null, exportablePath: "team/app", exportableName: "app", projectIds: [5], sendEmail: false });
    ns.down = true;
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) await tickVulnerabilityExports(deps);
    const [waiting] = await database.db.select().from(vulnerabilityExports).where(eq(vulnerabilityExports.id, row.id));
    expect(waiting).toMatchObject({ status: "created", retries: 0, finishedAt: null });

    ns.down = false;
    expect(await tickVulnerabilityExports(deps)).toMatchObject({ finished: 1, failed: 0 });
    const [done] = await database.db.select().from(vulnerabilityExports).where(eq(vulnerabilityExports.id, row.id));
    expect(done.status).toBe("finished");
    expect(done.file?.toString()).toMatch(/^Group Name,Project Name/);
  });
});
