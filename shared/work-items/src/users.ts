import { call, type Ctx, type UserRef } from "@collab/core";
import { Accounts } from "@collab/accounts-contract";

/** Users as the work-item services ask accounts for them: one call per request or page. */

export async function userMap(ctx: Ctx<unknown>, ids: Iterable<number | null | undefined>): Promise<Map<number, UserRef>> {
  const unique = [...new Set([...ids].filter((i): i is number => typeof i === "number"))];
  if (!unique.length) return new Map();
  const refs = await call(ctx, Accounts.users.refs, { ids: unique });
  return new Map(refs.map((u) => [u.id, u]));
}

export const usersByUsername = (ctx: Ctx<unknown>, usernames: string[]): Promise<UserRef[]> =>
  usernames.length ? call(ctx, Accounts.users.refs, { usernames }) : Promise.resolve([]);
