/**
 * What travels in ctx.meta with every call: only who is calling.
 * Keep it tiny — it is serialized into every request packet on the bus.
 */
export interface Caller {
  id: number;
  username: string;
  admin: boolean;
  /** External users cannot see internal projects. */
  external?: boolean;
  bot?: boolean;
}

export interface Meta {
  caller?: Caller | null;
  /** The personal access token used, for /personal_access_tokens/self. */
  tokenId?: number;
}

import type { Context } from "moleculer";
import { forbidden, unauthorized } from "./errors";

export type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

export const callerOf = (ctx: Context<unknown, Meta>): Caller | null => ctx.meta?.caller ?? null;

/** The authenticated caller, or 401 for anonymous calls. */
export function requireCaller(ctx: Context<unknown, Meta>): Caller {
  const caller = callerOf(ctx);
  if (!caller) throw unauthorized();
  return caller;
}

/** Administrators only: 401 anonymous, 403 everybody else. */
export function requireAdmin(ctx: Context<unknown, Meta>): Caller {
  const caller = requireCaller(ctx);
  if (!caller.admin) throw forbidden();
  return caller;
}
