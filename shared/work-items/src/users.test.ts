import { flushContract } from "@collab/core";
import { Accounts } from "@collab/accounts-contract";
import type { Context } from "moleculer";
import { userMap, userRefsHolder } from "./users";

/** A context whose users.refs calls answer refs named after their ids, and are recorded. */
function ctxOf(name = (id: number) => `user${id}`) {
  const asked: number[][] = [];
  const ctx = {
    meta: {},
    call: async (action: string, params: { ids: number[] }) => {
      if (action !== Accounts.users.refs.name) throw new Error(action);
      asked.push(params.ids);
      return params.ids.map((id) => ({ id, username: name(id), name: name(id), state: "active", locked: false, avatar_url: null, web_url: `http://x/${name(id)}` }));
    },
  } as unknown as Context;
  return { ctx, asked };
}

// One holder for the file: refs are held per process once a service implements its flush.
const flush = userRefsHolder(flushContract("demo.userRefs.flush"));
const flushNow = () => (flush.handler as () => { flushed: number })();
beforeEach(() => flushNow());

test("refs are asked once, only the missing ones, then held until a flush", async () => {
  const { ctx, asked } = ctxOf();
  expect([...(await userMap(ctx, [1, 2, 2, null])).keys()].sort()).toEqual([1, 2]);
  expect([...(await userMap(ctx, [2, 3])).keys()].sort()).toEqual([2, 3]);
  expect(asked).toEqual([[1, 2], [3]]);
  expect(flushNow().flushed).toBe(3);
  await userMap(ctx, [1]);
  expect(asked).toEqual([[1, 2], [3], [1]]);
});

test("a flush while refs are on their way keeps them from being held", async () => {
  const { ctx, asked } = ctxOf((id) => (flushNow(), `user${id}`));
  await userMap(ctx, [1]);
  await userMap(ctx, [1]);
  expect(asked).toHaveLength(2);
});

test("nothing asked for, nothing called", async () => {
  const { ctx, asked } = ctxOf();
  expect((await userMap(ctx, [null, undefined])).size).toBe(0);
  expect(asked).toEqual([]);
});

test("a flush action must be named <service>.userRefs.flush", () => {
  expect(() => userRefsHolder(flushContract("demo.refs.flush"))).toThrow("userRefs.flush");
});
