import { call, errorBodyOf, signCaller, type Caller, type Config, type RouteDef } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { GitMessages, onStorage, Repositories } from "@collab/repositories-contract";
import type { Context, ServiceBroker } from "moleculer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Transform, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { authenticateRequest, type Authentication, type IdentityCache } from "./auth";

/**
 * Git's smart HTTP transport at GitLab's paths, outside /api/v4:
 * `GET /<namespace>/<project>.git/info/refs?service=git-upload-pack|git-receive-pack`,
 * `POST …/git-upload-pack`, `POST …/git-receive-pack` (`.git` optional, nested groups allowed).
 * HTTP is handled here (credentials, gzip bodies, git's media types, GitLab's plain-text refusals
 * and the Basic challenge); the repositories replica serving the project's storage authorizes
 * the request and runs git, the bodies streamed both ways over the bus (moleculer streams).
 */
export type GitEndpoint = "info/refs" | "git-upload-pack" | "git-receive-pack";

export interface GitRequest {
  /** The project's full path, decoded. */
  project: string;
  endpoint: GitEndpoint;
}

const GIT_PATH = /^\/(.+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/** The git request a URL names, or null (any other path, or a method git does not use there). */
export function matchGitRequest(method: string | undefined, url: string): GitRequest | null {
  const m = GIT_PATH.exec(url.split("?")[0]);
  if (!m) return null;
  const endpoint = m[2] as GitEndpoint;
  if ((endpoint === "info/refs" ? "GET" : "POST") !== method) return null;
  let project: string;
  try {
    project = m[1].split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
  // A project lives in a namespace; the API and the gateway's own pages are never repositories.
  if (!project.includes("/") || project.startsWith("api/") || project.startsWith("-/") || project.includes("\0")) return null;
  return { project, endpoint };
}

/**
 * How the gateway's token resolution sees git requests: anonymous callers allowed (public
 * projects), personal, project and group access tokens with `api`, `read_repository` or
 * `write_repository` (any username), deploy tokens with `read_repository` (their username), job
 * tokens as `gitlab-ci-token`.
 */
const GIT_ROUTE: RouteDef = {
  method: "POST",
  path: "/:project.git",
  action: Repositories.git.uploadPack.name,
  auth: "optional",
  scopes: ["read_repository", "write_repository"],
  deployTokenScopes: ["read_repository"],
  jobToken: true,
};

/** A refusal in git's terms: a status and the text git shows (`remote: …` or in its error). */
class GitAnswer extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text);
  }
}

const ACCESS_DENIED = "HTTP Basic: Access denied. Use a personal, project or group access token (or a deploy or CI/CD job token) as the password.";

function sendText(res: ServerResponse, status: number, text: string) {
  if (res.headersSent) return void res.destroy();
  res.statusCode = status;
  if (status === 401) res.setHeader("WWW-Authenticate", 'Basic realm="GitLab"');
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.end(`${text}\n`);
}

/** The request body as git sent it, gunzipped when it says so, bounded by `limit` bytes. */
function bodyOf(req: IncomingMessage, limit: number): Readable {
  const encoding = String(req.headers["content-encoding"] ?? "").toLowerCase();
  let seen = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) return done(new GitAnswer(413, "413 Request Entity Too Large"));
      done(null, chunk);
    },
  });
  const source = encoding === "gzip" || encoding === "x-gzip" ? req.pipe(createGunzip()) : req;
  source.on("error", (err) => bounded.destroy(err));
  return source.pipe(bounded);
}

export interface GitHttpDeps {
  broker: ServiceBroker;
  config: Pick<Config, "UPLOAD_TIMEOUT_MS" | "MAX_UPLOAD_BYTES">;
  identities: IdentityCache;
  logger: { error(obj: object, msg: string): void };
}

/** May these credentials push? Personal tokens need `api` or `write_repository` (deploy and job tokens are the service's to refuse). */
const scopesAllowPush = (auth: Authentication | null) => !auth || auth.caller.deployToken !== undefined || auth.caller.job !== undefined || auth.scopes.some((s) => s === "api" || s === "write_repository");

/** Answers one git request (see matchGitRequest) end to end. */
export async function serveGitRequest(deps: GitHttpDeps, git: GitRequest, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // A root context for the calls of this request (moleculer-web makes one per request the same way).
  const ctx = deps.broker.ContextFactory.create(deps.broker, undefined as never, {}, { meta: {} }) as Context;
  const meta = ctx.meta as { caller?: Caller | null; tokenId?: number; auth?: string };
  let anonymous = true;
  try {
    const query = new URLSearchParams((req.url ?? "").split("?")[1] ?? "");
    const service = git.endpoint === "info/refs" ? query.get("service") : git.endpoint;
    if (service !== "git-upload-pack" && service !== "git-receive-pack") throw new GitAnswer(403, "Only the smart HTTP protocol is supported: use git 1.6.6 or later.");

    let auth: Authentication | null;
    try {
      auth = await authenticateRequest(ctx, GIT_ROUTE, req, {}, deps.identities);
    } catch (err) {
      const status = errorBodyOf(err)?.status ?? 500;
      throw status === 401 || status === 403 ? new GitAnswer(401, ACCESS_DENIED) : err;
    }
    anonymous = auth === null;
    // A push always needs credentials: asked for them (401), git retries with those it has, as with GitLab.
    if (anonymous && service === "git-receive-pack") throw new GitAnswer(401, ACCESS_DENIED);
    meta.caller = auth?.caller ?? null;
    if (auth?.tokenId !== undefined) meta.tokenId = auth.tokenId;
    const signed = signCaller({ caller: meta.caller, tokenId: meta.tokenId }, Date.now() + deps.config.UPLOAD_TIMEOUT_MS + 5_000);
    if (signed) meta.auth = signed;
    if (service === "git-receive-pack" && !scopesAllowPush(auth)) throw new GitAnswer(403, GitMessages.push);

    // Where the project lives: namespaces answers 404 for a project the caller may not see.
    const { project } = await call(ctx, Namespaces.access.project, { project: git.project });
    const gitProtocol = typeof req.headers["git-protocol"] === "string" ? req.headers["git-protocol"] : undefined;
    const params = { project_id: project.id, ...(gitProtocol && /^[A-Za-z0-9=:.,_-]{1,256}$/.test(gitProtocol) ? { git_protocol: gitProtocol } : {}) };
    const opts = onStorage(ctx, project.repository_storage, { timeout: deps.config.UPLOAD_TIMEOUT_MS });

    let answer: Readable;
    let type: string;
    if (git.endpoint === "info/refs") {
      answer = await call(ctx, Repositories.git.infoRefs, { ...params, service }, opts);
      type = `application/x-${service}-advertisement`;
    } else {
      const body = bodyOf(req, deps.config.MAX_UPLOAD_BYTES);
      const streamed = { ...opts, stream: body };
      answer = service === "git-upload-pack" ? await call(ctx, Repositories.git.uploadPack, params, streamed) : await call(ctx, Repositories.git.receivePack, params, streamed);
      type = `application/x-${service}-result`;
    }
    res.statusCode = 200;
    res.setHeader("Content-Type", type);
    res.setHeader("Cache-Control", "no-cache, max-age=0, must-revalidate");
    answer.on("error", () => res.destroy());
    res.on("close", () => {
      if (!answer.readableEnded) answer.destroy();
    });
    answer.pipe(res);
  } catch (err) {
    if (err instanceof GitAnswer) return sendText(res, err.status, err.text);
    const known = errorBodyOf(err);
    const status = known?.status ?? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : 500);
    // GitLab asks anonymous callers for credentials rather than saying a private project is absent.
    if (status === 404) return anonymous ? sendText(res, 401, ACCESS_DENIED) : sendText(res, 404, GitMessages.notFound);
    if (status === 403 && typeof known?.body.message === "string") return sendText(res, 403, known.body.message);
    if (status === 503) return sendText(res, 503, "503 Service Unavailable");
    deps.logger.error({ err: (err as Error).message, path: git.endpoint }, "git request failed");
    sendText(res, 500, "500 Internal Server Error");
  }
}
