import { flushContract } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import type { Context } from "moleculer";
import { levelsOnProjects, matchingProtectedBranches } from "./project-facts";
import { accessCacheHolder } from "./projects";

type Answer = (action: string, params: any) => unknown;

/** A context whose namespaces calls answer `answer`, each call recorded with its params. */
function ctxOf(answer: Answer) {
  const calls: { action: string; params: any }[] = [];
  const ctx = {
    meta: { caller: { id: 2, username: "alice", admin: false } },
    call: async (action: string, params: unknown) => {
      calls.push({ action, params });
      return answer(action, params);
    },
  } as unknown as Context;
  return { ctx, calls };
}

// The access flush empties these answers too (one holder for the file, as in a service's process).
const flush = accessCacheHolder(flushContract("demo.accessCache.flush"));
const flushNow = () => (flush.handler as () => { flushed: number })();
beforeEach(() => flushNow());

const levelsAnswer: Answer = (_a, { pairs }) => Object.fromEntries(pairs.map((p: { project_id: number; user_ids: number[] }) => [p.project_id, Object.fromEntries(p.user_ids.map((u) => [u, u === 9 ? 0 : 30]))]));

test("levels: only the pairs not held are asked; the access flush empties them", async () => {
  const { ctx, calls } = ctxOf(levelsAnswer);
  const first = await levelsOnProjects(ctx, new Map([[7, new Set([1, 9])]]));
  expect([...first.get(7)!]).toEqual([[1, 30], [9, 0]]);
  const second = await levelsOnProjects(ctx, new Map([[7, new Set([1, 9, 3])], [8, new Set([1])]]));
  expect(Object.fromEntries(second.get(7)!)).toEqual({ 1: 30, 9: 0, 3: 30 });
  expect(Object.fromEntries(second.get(8)!)).toEqual({ 1: 30 });
  expect(calls.map((c) => c.params.pairs)).toEqual([[{ project_id: 7, user_ids: [1, 9] }], [{ project_id: 7, user_ids: [3] }, { project_id: 8, user_ids: [1] }]]);
  expect(flushNow().flushed).toBe(4);
  await levelsOnProjects(ctx, new Map([[7, new Set([1])]]));
  expect(calls).toHaveLength(3);
  expect(calls.every((c) => c.action === Namespaces.access.levelsOnProjects.name)).toBe(true);
});

test("a flush while levels are on their way keeps them from being held", async () => {
  const { ctx, calls } = ctxOf((a, p) => (flushNow(), levelsAnswer(a, p)));
  await levelsOnProjects(ctx, new Map([[7, new Set([1])]]));
  await levelsOnProjects(ctx, new Map([[7, new Set([1])]]));
  expect(calls).toHaveLength(2);
});

test("matching protected branches keep the order asked, held per project and branch", async () => {
  const { ctx, calls } = ctxOf((_a, { pairs }) => pairs.map((p: { branch: string }) => (p.branch === "main" ? [4] : [])));
  expect(await matchingProtectedBranches(ctx, [{ project_id: 7, branch: "main" }, { project_id: 7, branch: "feature" }])).toEqual([[4], []]);
  expect(await matchingProtectedBranches(ctx, [{ project_id: 7, branch: "dev" }, { project_id: 7, branch: "main" }, { project_id: 7, branch: "feature" }])).toEqual([[], [4], []]);
  expect(calls.map((c) => c.params.pairs.map((p: { branch: string }) => p.branch))).toEqual([["main", "feature"], ["dev"]]);
});
