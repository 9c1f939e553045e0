import { call, flushUserRefsEverywhere, processCache, USER_REFS_FLUSH, type Ctx, type UserRef } from "@collab/core";
import { Accounts } from "@collab/accounts-contract";
import { on, type Subscription } from "@collab/db";
import type { ServiceBroker } from "moleculer";

/**
 * Users as the work-item services present them (UserBasic): display data of accounts, held in
 * this process once asked. Accounts announces every change of a ref (renamed, blocked, activated,
 * deleted…) as a durable event; each holding service applies it once and empties every holder on
 * every node (`<service>.userRefs.flush`, acknowledged) — a later page asks accounts again. A ref
 * asked while a flush passes is not kept, and nothing is kept longer than 30 s (a holder that
 * missed a flush while unreachable). Never used for who may do what: only for how a user is shown.
 * Off until a service of this process implements its flush (`userRefsHolder`).
 */
const refs = processCache<UserRef>(USER_REFS_FLUSH);
const heldRefs = refs.cache;

/** Implements a service's user-refs flush (`<service>.userRefs.flush`), and so turns holding on in this process. */
export const userRefsHolder = refs.holder;

/**
 * The accounts events that change a user ref, for a holding service's consumers: each empties every
 * holder once the consumer's transaction has committed (the event then counts as applied).
 */
export function userRefsFollowing(broker: () => ServiceBroker): Subscription[] {
  const flush = (reason: string) => () => flushUserRefsEverywhere(broker(), reason);
  return [
    on(Accounts.events.userUpdated, async (_p, _tx, event, afterCommit) => (afterCommit(flush(event.name)), 0)),
    on(Accounts.events.userDeleted, async (_p, _tx, event, afterCommit) => (afterCommit(flush(event.name)), 0)),
  ];
}

/** The refs of these users: those held, and the others asked of accounts in one call. */
export async function userMap(ctx: Ctx<unknown>, ids: Iterable<number | null | undefined>): Promise<Map<number, UserRef>> {
  const unique = [...new Set([...ids].filter((i): i is number => typeof i === "number"))];
  if (!unique.length) return new Map();
  if (!refs.held) return new Map((await call(ctx, Accounts.users.refs, { ids: unique })).map((u) => [u.id, u]));
  const out = new Map<number, UserRef>();
  const missing: number[] = [];
  for (const id of unique) {
    const held = heldRefs.get(String(id));
    if (held) out.set(id, held);
    else missing.push(id);
  }
  if (!missing.length) return out;
  const generation = heldRefs.generation();
  for (const ref of await call(ctx, Accounts.users.refs, { ids: missing })) {
    heldRefs.set(String(ref.id), Object.freeze(ref), generation);
    out.set(ref.id, ref);
  }
  return out;
}

export const usersByUsername = (ctx: Ctx<unknown>, usernames: string[]): Promise<UserRef[]> =>
  usernames.length ? call(ctx, Accounts.users.refs, { usernames }) : Promise.resolve([]);
