import { Accounts, type UserRef } from "@collab/accounts-contract";
import { call, type Ctx } from "@collab/core";

/** User refs from the accounts service, for a whole page at once (never one call per row). */
export async function userRefs(ctx: Ctx<unknown>, ids: Iterable<number | null | undefined>): Promise<Map<number, UserRef>> {
  const unique = [...new Set([...ids].filter((id): id is number => typeof id === "number"))];
  if (unique.length === 0) return new Map();
  const refs = await call(ctx, Accounts.users.refs, { ids: unique });
  return new Map(refs.map((u) => [u.id, u]));
}

export async function userRefsByUsername(ctx: Ctx<unknown>, usernames: string[]): Promise<UserRef[]> {
  if (usernames.length === 0) return [];
  return call(ctx, Accounts.users.refs, { usernames });
}
