import { defaultStatus, FlushableCache, forgetCallerAssertions, IdentityHolders, implement, isCursorPage, isJsonPage, isPage, type ClientInfo, type RawBody, isReply, isStream, loadConfig, requestsHeld, settingsMixin, signCaller, splitList, type Caller, type FileMeta, type RouteDef } from "@collab/core";
import type { Context, Service, ServiceSchema } from "moleculer";
import type { Server } from "node:http";
import ApiGateway from "moleculer-web";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex, Readable } from "node:stream";
import { authenticateRequest, scimGroupOf, withoutSecrets, type CachedIdentity } from "./auth";
import { answerProbe, servicesOf } from "./health";
import { errorHeaders, toHttpError } from "./http-errors";
import { cursorLink, paginationHeaders } from "./pagination";
import { multipartFields, type UploadedFile } from "./multipart";
import { mountedRoutes, mountedWebRoutes } from "./routes";
import { clientIpResolver, enforceRateLimits, ThrottledError } from "./rate-limits";
import { bodyParsers, rawBodyReader, uploadLimit } from "./body-parsers";
import { guardRequest, malformedUrl, notFoundForPathParam } from "./request-guard";
import { buildOpenApi, type DocumentedAction } from "./openapi";
import { createApiDocs } from "./api-docs";
import { contractActions, Gateway } from "./contracts";
import { matchGitRequest, serveGitRequest } from "./git-http";

export const API_VERSION = { version: "18.6.0", revision: "collab" };

type Req = IncomingMessage & {
  $ctx: Context;
  $params: Record<string, unknown>;
  $alias?: { routeDef?: RouteDef };
  $files?: Record<string, UploadedFile>;
  $rawBody?: Buffer;
  originalUrl?: string;
};

/**
 * Signs who the request is for, as authenticated above (`ctx.meta.auth`, valid at least until the
 * request's deadline): over a bus the services believe only that (shared/core/src/bus-auth-middleware.ts).
 */
function vouchFor(ctx: Context, timeoutMs: number) {
  const meta = ctx.meta as { caller?: Caller | null; tokenId?: number; scimGroupId?: number | null; auth?: string };
  const auth = signCaller({ caller: meta.caller ?? null, tokenId: meta.tokenId, scimGroupId: meta.scimGroupId }, Date.now() + timeoutMs + 5_000);
  if (auth) meta.auth = auth;
}

/** moleculer-web aliases for the route table; every GET also answers HEAD, as GitLab does. */
function aliasesFor(routes: RouteDef[]) {
  const aliases: Record<string, unknown> = {};
  for (const route of routes) {
    // moleculer-web hands a "stream" alias's request to the action as ctx.stream.
    const value = { action: route.action, routeDef: route, ...(route.streamBody ? { type: "stream" } : {}) };
    aliases[`${route.method} ${route.path}`] = value;
    if (route.method === "GET") aliases[`HEAD ${route.path}`] = value;
  }
  return aliases;
}

/** A `rawBody` route's params: the body's bytes and media type, and the request headers it names. */
function rawBodyParams(req: Req, headerNames: readonly string[]): { raw_body: RawBody; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  for (const name of headerNames) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const bytes = req.$rawBody ?? Buffer.alloc(0);
  return { raw_body: { content_type: req.headers["content-type"] ?? null, data: bytes.toString("base64") }, headers };
}

/** What a `streamBody` route's action learns of the body it streams: its declared type and length. */
function streamHeaders(req: Req): Record<string, string> {
  const headers: Record<string, string> = {};
  // npm-command: npm's publish and deprecate share PUT /…/npm/:package_name (the header tells them apart).
  for (const name of ["content-type", "content-length", "npm-command"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  return headers;
}

/**
 * A streamed upload the action answered without reading to the end (a limit passed, a refusal):
 * the rest is read and dropped, or it would stay in the connection ahead of the client's next
 * request on it (keep-alive), which would then never be parsed.
 */
function drainUnread(req: Req) {
  if (!req.$alias?.routeDef?.streamBody || req.complete || req.destroyed) return;
  req.removeAllListeners("readable"); // a half-used async iterator's listener would keep resume() from flowing
  req.on("data", () => undefined);
  req.resume();
}

/** Credentials and impersonation params never reach the services. */
const STRIPPED_PARAMS = ["private_token", "access_token", "job_token", "sudo"];

/**
 * One moleculer-web route per path outside /api/v4, its aliases at that path only, so requests to
 * any other path keep reaching no route (the 404 they had). Routes with `auth: "optional"` read no
 * credentials (the sign-up form); routes with `auth: "scim"` get the group their bearer credential
 * is the SCIM token of; the others authenticate as /api/v4 does (401 without a token), e.g.
 * accepting an invitation (the signed-in user of GitLab's web session is a token here).
 */
function webRouteBlocks(routes: RouteDef[], common: Record<string, unknown>, maxParamBytes: number, identities: FlushableCache<CachedIdentity>) {
  const byPath = new Map<string, RouteDef[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  return [...byPath].map(([path, defs]) => ({
    ...common,
    path,
    aliases: Object.fromEntries(defs.map((d) => [`${d.method} /`, { action: d.action, routeDef: d }])),
    async onBeforeCall(ctx: Context, _route: unknown, req: Req) {
      guardRequest(req, req.$params, { maxParamBytes });
      const def = req.$alias?.routeDef;
      const auth = def && def.auth !== "optional" && def.auth !== "scim" ? await authenticateRequest(ctx, def, req, req.$params, identities) : null;
      for (const key of STRIPPED_PARAMS) delete req.$params[key];
      (ctx.meta as Record<string, unknown>).caller = auth?.caller ?? null;
      if (auth) (ctx.meta as Record<string, unknown>).tokenId = auth.tokenId;
      if (def?.auth === "scim") (ctx.meta as Record<string, unknown>).scimGroupId = await scimGroupOf(ctx, req);
      vouchFor(ctx, (common.callOptions as { timeout: number }).timeout);
    },
  }));
}

/**
 * Node's HTTP parser reads request heads up to this size, so that an over-long URL reaches the
 * request guard (414 with a JSON body, HEAD answered without one) instead of the parser's bare 431.
 */
const MAX_REQUEST_HEAD_BYTES = 1024 * 1024;

/**
 * A request Node's HTTP parser refuses before the gateway sees it (a head over
 * MAX_REQUEST_HEAD_BYTES, a malformed request line) still gets a GitLab-style JSON answer.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable || err.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const [status, reason] = err.code === "HPE_HEADER_OVERFLOW" ? [431, "Request Header Fields Too Large"] : [400, "Bad Request"];
  const body = JSON.stringify({ message: `${status} ${reason}` });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** A download (a stream from fileResponse): 200 with the file's headers, as Rails' send_file. */
function sendFile(req: Req, res: ServerResponse, stream: Readable, file: FileMeta | undefined) {
  res.statusCode = 200;
  res.setHeader("Content-Type", file?.contentType ?? "application/octet-stream");
  if (file) {
    const ascii = file.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
    res.setHeader("Content-Disposition", `${file.disposition ?? "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    if (file.size !== undefined) res.setHeader("Content-Length", String(file.size));
    for (const [k, v] of Object.entries(file.headers ?? {})) res.setHeader(k, v);
  }
  res.setHeader("Content-Transfer-Encoding", "binary");
  if (req.method === "HEAD") {
    stream.resume(); // drain: a remote stream keeps arriving until it ends
    res.end();
    return;
  }
  stream.on("error", () => res.destroy());
  stream.pipe(res);
}

/**
 * The gateway for a route table. `actions` are the contract entries whose input and output
 * schemas describe the routes in the OpenAPI document (contracts only: no service's code is in
 * the gateway's process).
 */
export function createGatewayService(routes: RouteDef[] = mountedRoutes, webRoutes: RouteDef[] = mountedWebRoutes, actions: ReadonlyMap<string, DocumentedAction> = contractActions()): ServiceSchema {
  const config = loadConfig();
  const clientIp = clientIpResolver(splitList(config.TRUSTED_PROXIES));
  const serveApiDocs = createApiDocs(buildOpenApi({ routes, webRoutes, actions, version: API_VERSION.version }));
  const requiredServices = servicesOf(routes);
  // Token → caller, flushed by accounts on every gateway before a change to either answers.
  const identities = new FlushableCache<CachedIdentity>();
  const metadata = {
    ...API_VERSION,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: config.LICENSE_TIER !== "free",
  };

  // Our own parsers (see body-parsers.ts), then multipart: moleculer-web's are turned off.
  const parsers = [...bodyParsers(config.MAX_BODY_BYTES), multipartFields(config.MAX_BODY_BYTES)];

  /** A moleculer-web route for /api/v4 routes (named, so that two blocks share the prefix). */
  const apiRouteBlock = (name: string, defs: RouteDef[], use: unknown[], timeout = config.REQUEST_TIMEOUT_MS) => ({
    name,
    path: "/api/v4",
    mappingPolicy: "restrict",
    mergeParams: true,
    logging: false,
    bodyParsers: false,
    use,
    aliases: aliasesFor(defs),
    callOptions: { timeout },
    async onBeforeCall(this: unknown, ctx: Context, _route: unknown, req: Req, res: ServerResponse) {
      const def = req.$alias?.routeDef;
      if (!def) return;
      guardRequest(req, req.$params, { def, maxParamBytes: config.MAX_BODY_BYTES });
      const auth = await authenticateRequest(ctx, def, req, req.$params, identities);
      for (const key of STRIPPED_PARAMS) delete req.$params[key];
      if (def.params) Object.assign(req.$params, def.params);
      // Only a multipart file part is a file: any other value of the name (JSON, query, a
      // text field) becomes a string, which the action's file schema refuses ("is invalid").
      for (const name of def.files ?? []) {
        const file = req.$files?.[name];
        if (file) req.$params[name] = file;
        else if (req.$params[name] !== undefined) req.$params[name] = String(req.$params[name]);
      }
      if (def.rawBody) Object.assign(req.$params, rawBodyParams(req, def.rawBody.headers ?? []));
      if (def.streamBody) req.$params.headers = streamHeaders(req);
      // Set after the merge, so a client cannot pass its own.
      if (def.clientInfo) req.$params.client_info = { user_agent: String(req.headers["user-agent"] ?? ""), ip_address: clientIp(req) } satisfies ClientInfo;
      (ctx.meta as Record<string, unknown>).caller = auth?.caller ?? null;
      if (auth?.tokenId !== undefined) (ctx.meta as Record<string, unknown>).tokenId = auth.tokenId;
      vouchFor(ctx, timeout);
      await enforceRateLimits(ctx, def, req, res, req.$params, auth?.caller ?? null, clientIp);
    },
  });

  // Typed loosely on purpose: moleculer-web's settings types lag behind its runtime options.
  const settings = {
      port: config.PORT,
      ip: config.HOST,
      qsOptions: { arrayLimit: 100 },
      log4XXResponses: false,
      logRequest: null,
      logResponse: null,
      logRouteRegistration: "debug",
      routes: [
        apiRouteBlock("api", routes.filter((r) => !r.rawBody && !r.streamBody), parsers),
        // Routes taking their body as bytes (RouteDef.rawBody): same /api/v4 prefix, own reader.
        apiRouteBlock("api-raw", routes.filter((r) => r.rawBody), [rawBodyReader(config.MAX_BODY_BYTES)]),
        // Routes streaming their body to the action (RouteDef.streamBody): nothing reads it here.
        apiRouteBlock("api-stream", routes.filter((r) => r.streamBody), [uploadLimit(config.MAX_UPLOAD_BYTES)], config.UPLOAD_TIMEOUT_MS),
        ...webRouteBlocks(webRoutes, { mappingPolicy: "restrict", mergeParams: true, logging: false, bodyParsers: false, use: parsers, callOptions: { timeout: config.REQUEST_TIMEOUT_MS } }, config.MAX_BODY_BYTES, identities),
      ],
  };

  const schema: ServiceSchema = {
    name: "gateway",
    mixins: [ApiGateway as unknown as ServiceSchema, settingsMixin],
    settings: settings as ServiceSchema["settings"],
    actions: {
      // GitLab answers the deprecated /version with the same metadata document as /metadata.
      version: implement(Gateway.version, () => metadata, { visibility: "published" }),
      metadata: implement(Gateway.metadata, () => metadata, { visibility: "published" }),
      // Accounts calls this on every gateway node, and waits, before a change to a token or a user answers.
      "identity.flush": implement(IdentityHolders.flush, () => ({ flushed: identities.flush() + forgetCallerAssertions() })),
    },
    methods: {
      /** Turns a service's plain answer into HTTP: status defaults, Page headers, Reply statuses. */
      sendResponse(this: { baseUrlFor(req: Req): string }, req: Req, res: ServerResponse, data: unknown) {
        if (res.headersSent) return;
        const def = req.$alias?.routeDef;
        drainUnread(req);
        if (isStream(data)) {
          sendFile(req, res, data, (req.$ctx.meta as { $file?: FileMeta }).$file);
          return;
        }
        let status = def ? defaultStatus(def) : 200;
        let body: unknown = data;
        /** The body as text already: a page serialised by the service that answered (pageAsJsonMiddleware), written as it came. */
        let text: string | undefined;
        if (isReply(data)) {
          status = data.status;
          body = data.body;
          for (const [k, v] of Object.entries(data.headers ?? {})) res.setHeader(k, v);
        } else if (isCursorPage(data)) {
          const url = new URL(req.originalUrl ?? req.url ?? "/", this.baseUrlFor(req));
          const link = cursorLink(data, url);
          if (link) res.setHeader("Link", link);
          body = data.items;
        } else if (isPage(data)) {
          const url = new URL(req.originalUrl ?? req.url ?? "/", this.baseUrlFor(req));
          for (const [k, v] of Object.entries(paginationHeaders(data, url))) res.setHeader(k, v);
          if (isJsonPage(data)) text = data.itemsJson;
          else body = data.items;
        }
        res.statusCode = status;
        if (text === undefined && (status === 204 || status === 304 || body === null || body === undefined)) {
          res.end();
          return;
        }
        res.setHeader("Content-Type", def?.contentType ?? "application/json");
        res.end(text ?? JSON.stringify(body));
      },

      sendError(this: { logger: { error: (o: object, m: string) => void } }, req: Req, res: ServerResponse, err: Error) {
        if (res.headersSent) return;
        if (err instanceof ThrottledError) {
          res.statusCode = 429;
          for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
          res.setHeader("Content-Type", "text/plain");
          res.end(err.text);
          return;
        }
        drainUnread(req);
        const { status, body, internal } = toHttpError(notFoundForPathParam(err, req.$alias?.routeDef) ?? err);
        if (internal) this.logger.error({ err, url: withoutSecrets(req.originalUrl ?? req.url ?? "") }, "request failed");
        res.statusCode = status;
        for (const [name, value] of Object.entries(errorHeaders(status))) res.setHeader(name, value);
        if (body === null) {
          res.end();
          return;
        }
        res.setHeader("Content-Type", req.$alias?.routeDef?.contentType ?? "application/json");
        res.end(JSON.stringify(body));
      },

      /** Absolute base for Link headers: EXTERNAL_URL, else the request's own host. */
      baseUrlFor(req: Req): string {
        if (config.EXTERNAL_URL) return config.EXTERNAL_URL;
        const proto = (req.headers["x-forwarded-proto"] as string | undefined) ?? "http";
        return `${proto}://${req.headers.host ?? "localhost"}`;
      },
    },
    created(this: Service) {
      // Wrap moleculer-web's request handler: probes, security headers and one log line per request.
      const server = (this as unknown as { server: Server }).server;
      const handler = server.listeners("request")[0] as (req: IncomingMessage, res: ServerResponse) => void;
      server.removeAllListeners("request");
      const { broker, logger } = this;
      // http.Server's maxHeaderSize option, read per connection (moleculer-web creates the server).
      (server as Server & { maxHeaderSize?: number }).maxHeaderSize = MAX_REQUEST_HEAD_BYTES;
      // Keep idle client connections longer than clients and load balancers do (60 s is common):
      // with Node's 5 s default, a client reusing a connection the server just closed gets ECONNRESET.
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
      server.on("clientError", answerClientError);
      const onRequest = (req: IncomingMessage, res: ServerResponse) => {
        const started = process.hrtime.bigint();
        res.setHeader("X-Frame-Options", "SAMEORIGIN");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.once("finish", () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          logger.info(
            { method: req.method, path: (req.url ?? "").split("?")[0], status: res.statusCode, duration_ms: Math.round(ms * 10) / 10, request_id: res.getHeader("X-Request-ID") },
            "request",
          );
        });
        const probe = answerProbe(broker, req, res, requiredServices);
        if (probe) {
          probe.catch((err: Error) => logger.warn({ err: err.message }, "probe failed"));
          return;
        }
        if (serveApiDocs(req, res)) return;
        // git clone/fetch/push at /<namespace>/<project>.git/… (git-http.ts), before moleculer-web's routes.
        const git = matchGitRequest(req.method, req.url ?? "/");
        if (git) {
          void serveGitRequest({ broker, config, identities, logger }, git, req, res);
          return;
        }
        const malformed = malformedUrl(req.url ?? "/");
        if (malformed) {
          const { status, body } = toHttpError(malformed);
          res.statusCode = status;
          res.setHeader("Content-Type", "application/json");
          res.end(JSON.stringify(body));
          return;
        }
        handler(req, res);
      };
      // A worker not yet known to its siblings holds what arrives (request-gate.ts).
      server.on("request", (req: IncomingMessage, res: ServerResponse) => {
        const held = requestsHeld();
        if (held) void held.then(() => onRequest(req, res));
        else onRequest(req, res);
      });
    },
  };
  return schema as unknown as ServiceSchema;
}
