import { insufficientScope, unauthorized, forbidden, type Caller, type RouteDef } from "@collab/core";
import type { Context } from "moleculer";
import type { IncomingMessage } from "node:http";

export interface Authentication {
  caller: Caller;
  scopes: string[];
  /** The personal (or project/group) access token used; absent for a deploy token. */
  tokenId?: number;
  /** The deploy token used (the caller then carries `deployToken`). */
  deployTokenId?: number;
  /** Epoch milliseconds at which the credential stops working: the cache keeps it no longer. */
  validUntil?: number;
}

/** Deploy token credentials: the `Deploy-Token` header's secret, or HTTP Basic's username and secret. */
export interface DeployTokenCredentials {
  token: string;
  username?: string;
}

/**
 * The `Deploy-Token` header, else HTTP Basic credentials (GitLab's registries take a deploy token's
 * username and secret that way). `null` for Basic credentials that do not decode to user:secret.
 */
export function deployTokenFrom(req: IncomingMessage): DeployTokenCredentials | null | undefined {
  const header = req.headers["deploy-token"];
  if (typeof header === "string" && header) return { token: header };
  const authz = req.headers.authorization;
  if (typeof authz !== "string" || !/^basic\s+/i.test(authz)) return undefined;
  const decoded = Buffer.from(authz.replace(/^basic\s+/i, "").trim(), "base64").toString("utf8");
  const at = decoded.indexOf(":");
  if (at <= 0 || at === decoded.length - 1) return null;
  return { username: decoded.slice(0, at), token: decoded.slice(at + 1) };
}

/** The `Authorization: Bearer` credential alone: what SCIM clients send (Doorkeeper's bearer header). */
export function bearerFrom(req: IncomingMessage): string | undefined {
  const authz = req.headers.authorization;
  if (typeof authz !== "string" || !/^bearer\s+/i.test(authz)) return undefined;
  return authz.replace(/^bearer\s+/i, "").trim() || undefined;
}

/**
 * Routes with `auth: "scim"`: the group whose SCIM token the bearer credential is (accounts keeps
 * only digests), null when the request has none or an unknown one. No user is authenticated and
 * nothing is refused here: the action answers 401 in GitLab's order, after its own lookups.
 * Not cached, so a regenerated token stops working at once.
 */
export async function scimGroupOf(ctx: Context, req: IncomingMessage): Promise<number | null> {
  const token = bearerFrom(req);
  if (!token) return null;
  const { group_id } = await ctx.call<{ group_id: number | null }, { token: string }>("accounts.scim.authenticate", { token });
  return group_id;
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
 * Short-lived token cache; entries are dropped at once on revocation or user change events, and
 * never outlive the credential's own expiry. Every drop bumps `generation`, so an answer fetched
 * before a revocation is never cached after it. Keys are the secrets as presented: personal tokens
 * under `tokenKey`, deploy tokens under `deployKey`, so neither kind can be served for the other.
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
    if (hit.expires < Date.now() || (hit.auth.validUntil !== undefined && hit.auth.validUntil <= Date.now())) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.auth;
  }

  /** Caches `auth` unless something was dropped since `since` (the generation read before the lookup). */
  set(token: string, auth: Authentication, since = this.generation) {
    if (since !== this.generation) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { auth, expires: Math.min(Date.now() + this.ttlMs, auth.validUntil ?? Infinity) });
  }

  dropToken(tokenId: number) {
    this.generation++;
    for (const [k, v] of this.entries) if (v.auth.tokenId === tokenId) this.entries.delete(k);
  }

  dropDeployToken(deployTokenId: number) {
    this.generation++;
    for (const [k, v] of this.entries) if (v.auth.deployTokenId === deployTokenId) this.entries.delete(k);
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

/** Cache keys: a personal token's, and a deploy token's (its username too, when Basic gave one). */
export const tokenKey = (token: string) => `pat\u0000${token}`;
export const deployKey = (c: DeployTokenCredentials) => `deploy\u0000${c.username ?? ""}\u0000${c.token}`;

/**
 * A deploy token authenticates only where the route declares deploy token scopes (one of them
 * needed), and never with Sudo. It is looked up first, so a revoked or expired one gets its own
 * answer everywhere; a valid one on any other route is a plain 401.
 */
async function authenticateDeployToken(ctx: Context, cache: TokenCache, route: RouteDef, credentials: DeployTokenCredentials | null, sudo: string | undefined): Promise<Authentication> {
  if (credentials === null) throw unauthorized();
  const key = deployKey(credentials);
  let auth = cache.get(key);
  if (!auth) {
    const generation = cache.generation;
    auth = await ctx.call<Authentication, DeployTokenCredentials>("accounts.deployTokens.authenticate", credentials);
    cache.set(key, auth, generation);
  }
  const accepted = route.deployTokenScopes;
  if (!accepted || accepted.length === 0 || auth.deployTokenId === undefined) throw unauthorized();
  if (!auth.scopes.some((s) => accepted.includes(s))) throw insufficientScope(accepted);
  if (sudo !== undefined && sudo !== "") throw forbidden("Must be authenticated using an OAuth or personal access token to use sudo");
  return auth;
}

/** Secret prefixes of the credentials that are no personal token (GitLab's `glcbt-` and `gldt-`). */
const JOB_TOKEN_PREFIX = "glcbt-";
const DEPLOY_TOKEN_PREFIX = "gldt-";
/** The username GitLab's registries take with a job token over HTTP Basic. */
const JOB_TOKEN_USERNAME = "gitlab-ci-token";

/** Which credential a request carries, for a route. */
type Credential = { kind: "personal"; token: string } | { kind: "deploy"; credentials: DeployTokenCredentials | null } | { kind: "job"; token: string } | { kind: "none" };

/**
 * The request's credential. PRIVATE-TOKEN (or its params) is a personal token; JOB-TOKEN (or
 * `job_token`) a job token. Registry clients put any token in `Authorization` (the npm CLI sends
 * `Bearer <_authToken>`), so on routes that take deploy or job tokens a Bearer or Basic secret is
 * told apart by its prefix; elsewhere Bearer stays a personal token and Basic a deploy token.
 */
export function credentialOf(req: IncomingMessage, params: Record<string, unknown>, route: RouteDef): Credential {
  const registry = route.jobToken === true || (route.deployTokenScopes?.length ?? 0) > 0;
  const header = req.headers["private-token"];
  if (typeof header === "string" && header) return { kind: "personal", token: header };
  const jobHeader = req.headers["job-token"];
  if (typeof jobHeader === "string" && jobHeader) return { kind: "job", token: jobHeader };
  const bearer = bearerFrom(req);
  if (bearer) {
    if (registry && bearer.startsWith(JOB_TOKEN_PREFIX)) return { kind: "job", token: bearer };
    if (registry && bearer.startsWith(DEPLOY_TOKEN_PREFIX)) return { kind: "deploy", credentials: { token: bearer } };
    return { kind: "personal", token: bearer };
  }
  for (const key of ["private_token", "access_token"]) if (typeof params[key] === "string" && params[key]) return { kind: "personal", token: params[key] as string };
  if (typeof params.job_token === "string" && params.job_token) return { kind: "job", token: params.job_token };
  const deploy = deployTokenFrom(req);
  if (deploy === undefined) return { kind: "none" };
  if (deploy && (deploy.username === JOB_TOKEN_USERNAME || deploy.token.startsWith(JOB_TOKEN_PREFIX))) return { kind: "job", token: deploy.token };
  if (registry && deploy && !deploy.token.startsWith(DEPLOY_TOKEN_PREFIX)) return { kind: "personal", token: deploy.token };
  return { kind: "deploy", credentials: deploy };
}

/**
 * A CI/CD job token: only on routes that take one, for a running job (runners answers 401
 * otherwise). The caller is the job's user; never cached, so a finished job's token stops at once.
 */
async function authenticateJobToken(ctx: Context, route: RouteDef, token: string, sudo: string | undefined): Promise<Authentication> {
  if (!route.jobToken) throw unauthorized();
  const job = await ctx.call<{ job_id: number; project_id: number; pipeline_id: number; user_id: number | null }, { token: string }>("runners.jobs.authenticate", { token });
  if (job.user_id === null) throw unauthorized();
  const user = await ctx.call<Caller, { user_id: number }>("accounts.jobCaller", { user_id: job.user_id });
  if (sudo !== undefined && sudo !== "") throw forbidden("Must be authenticated using an OAuth or personal access token to use sudo");
  return { caller: { ...user, job: { id: job.job_id, projectId: job.project_id, pipelineId: job.pipeline_id } }, scopes: ["api"] };
}

/**
 * Resolves the caller of a request, then applies Sudo for administrators as GitLab does.
 * Returns null for anonymous requests on routes that allow them. A personal token wins over deploy
 * or job token credentials sent beside it.
 */
export async function authenticateRequest(
  ctx: Context,
  cache: TokenCache,
  route: RouteDef,
  req: IncomingMessage,
  params: Record<string, unknown>,
): Promise<Authentication | null> {
  const credential = credentialOf(req, params, route);
  const sudo = (req.headers.sudo as string | undefined) ?? (typeof params.sudo === "string" || typeof params.sudo === "number" ? String(params.sudo) : undefined);
  if (credential.kind === "job") return authenticateJobToken(ctx, route, credential.token, sudo);
  if (credential.kind === "deploy") return authenticateDeployToken(ctx, cache, route, credential.credentials, sudo);
  if (credential.kind === "none") {
    if (route.auth === "optional" && sudo === undefined) return null;
    throw unauthorized();
  }
  const token = credential.token;
  let auth = cache.get(tokenKey(token));
  if (!auth) {
    const generation = cache.generation;
    auth = await ctx.call<Authentication, { token: string }>("accounts.authenticate", { token });
    cache.set(tokenKey(token), auth, generation);
  }
  checkScopes(route, auth.scopes);
  if (sudo === undefined || sudo === "") return auth;
  if (!auth.caller.admin) throw forbidden("Must be admin to use sudo");
  if (!auth.scopes.includes("sudo")) throw insufficientScope(["sudo"]);
  const target = await ctx.call<Caller, { ref: string }>("accounts.resolveSudo", { ref: sudo });
  return { ...auth, caller: target };
}

/** Query params that carry secrets, masked wherever a URL is logged. */
const SECRET_PARAMS = new Set(["private_token", "access_token", "job_token", "token", "deploy_token"]);

/** The URL with the values of credential params masked: secrets are never logged. */
export function withoutSecrets(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let key = name;
      try {
        key = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        /* keep it as sent */
      }
      return eq >= 0 && SECRET_PARAMS.has(key.toLowerCase()) ? `${name}=[FILTERED]` : pair;
    });
  return `${url.slice(0, q)}?${params.join("&")}`;
}
