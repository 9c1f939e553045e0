import { flushContract, notFound } from "@collab/core";
import { Namespaces, type ProjectAccess } from "@collab/namespaces-contract";
import type { Context } from "moleculer";
import { accessCacheHolder, authorizeProject } from "./projects";

/** A context of `caller` whose access.project calls answer `answer` and are counted. */
function ctxOf(caller: unknown, answer: (ref: unknown) => unknown) {
  const calls: unknown[] = [];
  const ctx = {
    meta: { caller },
    call: async (action: string, params: { project: unknown }) => {
      if (action !== Namespaces.access.project.name) throw new Error(action);
      calls.push(params.project);
      return answer(params.project);
    },
  } as unknown as Context;
  return { ctx, calls };
}
const access = (id: number) => ({ project: { id }, access_level: 30, role: 30 }) as unknown as ProjectAccess;
const alice = { id: 2, username: "alice", admin: false };

// One holder for the file: the cache is per process, on once a service implements its flush.
const flush = accessCacheHolder(flushContract("demo.accessCache.flush"));
const flushNow = () => (flush.handler as () => { flushed: number })();
beforeEach(() => flushNow());

test("an answer is asked once per caller and project, then held until a flush", async () => {
  const { ctx, calls } = ctxOf(alice, (ref) => access(ref as number));
  for (let i = 0; i < 3; i++) expect((await authorizeProject(ctx, 7)).project.id).toBe(7);
  await authorizeProject(ctx, 8);
  expect(calls).toEqual([7, 8]);
  expect(flushNow().flushed).toBe(2);
  await authorizeProject(ctx, 7);
  expect(calls).toEqual([7, 8, 7]);
});

test("callers that differ in anything access depends on do not share an answer", async () => {
  const callers = [alice, { ...alice, admin: true }, { ...alice, external: true }, { ...alice, bot: true }, { ...alice, id: 3 }, null];
  let asked = 0;
  for (const caller of callers) await authorizeProject(ctxOf(caller, () => (asked++, access(7))).ctx, 7);
  expect(asked).toBe(callers.length);
  for (const caller of callers) await authorizeProject(ctxOf(caller, () => (asked++, access(7))).ctx, 7);
  expect(asked).toBe(callers.length);
});

test("a refusal is never held", async () => {
  const { ctx, calls } = ctxOf(alice, () => Promise.reject(notFound("Project")));
  for (let i = 0; i < 2; i++) await expect(authorizeProject(ctx, 7)).rejects.toThrow();
  expect(calls).toHaveLength(2);
});

test("deploy and job token callers are asked every time", async () => {
  for (const caller of [{ id: 0, username: "deploy", admin: false, deployToken: { id: 1 } }, { ...alice, job: { id: 5, projectId: 7, pipelineId: 1 } }]) {
    const { ctx, calls } = ctxOf(caller, () => access(7));
    await authorizeProject(ctx, 7);
    await authorizeProject(ctx, 7);
    expect(calls).toHaveLength(2);
  }
});

test("a flush while an answer is on its way keeps it from being held", async () => {
  const { ctx, calls } = ctxOf(alice, () => (flushNow(), access(7)));
  await authorizeProject(ctx, 7);
  await authorizeProject(ctx, 7);
  expect(calls).toHaveLength(2);
});

test("a flush action must be named <service>.accessCache.flush", () => {
  expect(() => accessCacheHolder(flushContract("demo.other.flush"))).toThrow("accessCache.flush");
});
