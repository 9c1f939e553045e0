import { insufficientScope, unauthorized, forbidden, type Caller, type RouteDef } from "@collab/core";
import type { Context } from "moleculer";
import type { IncomingMessage } from "node:http";

export interface Authentication {
  caller: Caller;
  scopes: string[];
  tokenId: number;
}

/** PRIVATE-TOKEN header, Authorization: Bearer, or the private_token / access_token param. */
export function tokenFrom(req: IncomingMessage, params: Record<string, unknown>): string | undefined {
  const header = req.headers["private-token"];
  if (typeof header === "string" && header) return header;
  const authz = req.headers.authorization;
  if (typeof authz === "string" && /^bearer\s+/i.test(authz)) return authz.replace(/^bearer\s+/i, "").trim();
  for (const key of ["private_token", "access_token"]) if (typeof params[key] === "string" && params[key]) return params[key] as string;
  return undefined;
}

/** Scopes that let a token reach a route: api always, read_api for reads, plus the route's own. */
export function acceptableScopes(route: RouteDef): string[] {
  const read = route.method === "GET";
  return ["api", ...(read ? ["read_api"] : []), ...(route.scopes ?? [])];
}

export function checkScopes(route: RouteDef, scopes: readonly string[]) {
  const acceptable = acceptableScopes(route);
  if (!scopes.some((s) => acceptable.includes(s))) throw insufficientScope(acceptable);
}

/**
 * Short-lived token cache; entries are dropped at once on revocation or user change events.
 * Every drop bumps `generation`, so an answer fetched before a revocation is never cached after it.
 */
export class TokenCache {
  private entries = new Map<string, { auth: Authentication; expires: number }>();
  /** Bumped by every drop: pass the value read before a lookup to `set`. */
  generation = 0;
  constructor(
    private ttlMs = 10_000,
    private max = 10_000,
  ) {}

  get(token: string): Authentication | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (hit.expires < Date.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.auth;
  }

  /** Caches `auth` unless something was dropped since `since` (the generation read before the lookup). */
  set(token: string, auth: Authentication, since = this.generation) {
    if (since !== this.generation) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { auth, expires: Date.now() + this.ttlMs });
  }

  dropToken(tokenId: number) {
    this.generation++;
    for (const [k, v] of this.entries) if (v.auth.tokenId === tokenId) this.entries.delete(k);
  }

  dropUser(userId: number) {
    this.generation++;
    for (const [k, v] of this.entries) if (v.auth.caller.id === userId) this.entries.delete(k);
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * Resolves the caller of a request, then applies Sudo for administrators as GitLab does.
 * Returns null for anonymous requests on routes that allow them.
 */
export async function authenticateRequest(
  ctx: Context,
  cache: TokenCache,
  route: RouteDef,
  req: IncomingMessage,
  params: Record<string, unknown>,
): Promise<Authentication | null> {
  const token = tokenFrom(req, params);
  const sudo = (req.headers.sudo as string | undefined) ?? (typeof params.sudo === "string" || typeof params.sudo === "number" ? String(params.sudo) : undefined);
  if (!token) {
    if (route.auth === "optional" && sudo === undefined) return null;
    throw unauthorized();
  }
  let auth = cache.get(token);
  if (!auth) {
    const generation = cache.generation;
    auth = await ctx.call<Authentication, { token: string }>("accounts.authenticate", { token });
    cache.set(token, auth, generation);
  }
  checkScopes(route, auth.scopes);
  if (sudo === undefined || sudo === "") return auth;
  if (!auth.caller.admin) throw forbidden("Must be admin to use sudo");
  if (!auth.scopes.includes("sudo")) throw insufficientScope(["sudo"]);
  const target = await ctx.call<Caller, { ref: string }>("accounts.resolveSudo", { ref: sudo });
  return { ...auth, caller: target };
}
