import { Accounts } from "@collab/accounts-contract";
import { call, insufficientScope, unauthorized, forbidden, type Caller, type FlushableCache, type RouteDef } from "@collab/core";
import { Runners } from "@collab/runners-contract";
import type { Context } from "moleculer";
import type { IncomingMessage } from "node:http";
import { createHash } from "node:crypto";

export interface Authentication {
  caller: Caller;
  scopes: string[];
  /** The personal (or project/group) access token used; absent for a deploy token. */
  tokenId?: number;
  /** The deploy token used (the caller then carries `deployToken`). */
  deployTokenId?: number;
}

/** What the gateway holds per personal token: accounts' answer (see FlushableCache in @collab/core). */
export type CachedIdentity = Authentication & { tokenId: number };
export type IdentityCache = FlushableCache<CachedIdentity>;

/** A token's expiry date (UTC, as accounts keeps it) as the instant it stops working. */
const expiryInstant = (date: string | null) => (date === null ? Infinity : Date.parse(`${date}T00:00:00Z`));

/**
 * The caller of a personal token: from the gateway's cache, else asked of accounts and held until
 * a flush, the 30 s backstop or the token's expiry, whichever comes first. Only successes are held:
 * a refused token is asked again every time. Keyed by the token's digest, never the secret.
 */
async function personalTokenIdentity(ctx: Context, token: string, cache: IdentityCache | undefined): Promise<Authentication> {
  if (!cache) return call(ctx, Accounts.authenticate, { token });
  const key = createHash("sha256").update(token).digest("base64");
  const held = cache.get(key);
  if (held) return held;
  const generation = cache.generation();
  const auth = await call(ctx, Accounts.authenticate, { token });
  cache.set(key, auth, generation, expiryInstant(auth.expiresAt));
  return auth;
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
  const { group_id } = await call(ctx, Accounts.scim.authenticate, { token });
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
 * A deploy token authenticates only where the route declares deploy token scopes (one of them
 * needed), and never with Sudo. It is looked up first, so a revoked or expired one gets its own
 * answer everywhere; a valid one on any other route is a plain 401.
 */
async function authenticateDeployToken(ctx: Context, route: RouteDef, credentials: DeployTokenCredentials | null, sudo: string | undefined): Promise<Authentication> {
  if (credentials === null) throw unauthorized();
  const auth: Authentication = await call(ctx, Accounts.deployTokens.authenticate, credentials);
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
  const job = await call(ctx, Runners.jobs.authenticate, { token });
  if (job.user_id === null) throw unauthorized();
  const user = await call(ctx, Accounts.jobCaller, { user_id: job.user_id });
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
  route: RouteDef,
  req: IncomingMessage,
  params: Record<string, unknown>,
  identities?: IdentityCache,
): Promise<Authentication | null> {
  const credential = credentialOf(req, params, route);
  const sudo = (req.headers.sudo as string | undefined) ?? (typeof params.sudo === "string" || typeof params.sudo === "number" ? String(params.sudo) : undefined);
  if (credential.kind === "job") return authenticateJobToken(ctx, route, credential.token, sudo);
  if (credential.kind === "deploy") return authenticateDeployToken(ctx, route, credential.credentials, sudo);
  if (credential.kind === "none") {
    if (route.auth === "optional" && sudo === undefined) return null;
    throw unauthorized();
  }
  // Held at the edge, flushed on every gateway before any change that affects it answers: a revoked
  // token, a blocked user or a lowered scope takes effect on the very next request, on every replica.
  const auth = await personalTokenIdentity(ctx, credential.token, identities);
  checkScopes(route, auth.scopes);
  if (sudo === undefined || sudo === "") return auth;
  if (!auth.caller.admin) throw forbidden("Must be admin to use sudo");
  if (!auth.scopes.includes("sudo")) throw insufficientScope(["sudo"]);
  const target = await call(ctx, Accounts.resolveSudo, { ref: sudo });
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
