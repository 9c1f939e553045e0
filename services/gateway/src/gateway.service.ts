import { defaultStatus, isPage, isReply, loadConfig, settingsMixin, type RouteDef } from "@collab/core";
import type { Context, Service, ServiceSchema } from "moleculer";
import type { Server } from "node:http";
import ApiGateway from "moleculer-web";
import type { IncomingMessage, ServerResponse } from "node:http";
import { authenticateRequest, TokenCache } from "./auth";
import { answerProbe, servicesOf } from "./health";
import { toHttpError } from "./http-errors";
import { paginationHeaders } from "./pagination";
import { multipartFields } from "./multipart";
import { mountedRoutes } from "./routes";
import { enforceRateLimits, ThrottledError } from "./rate-limits";

export const API_VERSION = { version: "18.6.0", revision: "collab" };

type Req = IncomingMessage & { $ctx: Context; $params: Record<string, unknown>; $alias?: { routeDef?: RouteDef }; originalUrl?: string };

/** moleculer-web aliases for the route table; every GET also answers HEAD, as GitLab does. */
function aliasesFor(routes: RouteDef[]) {
  const aliases: Record<string, unknown> = {};
  for (const route of routes) {
    const value = { action: route.action, routeDef: route };
    aliases[`${route.method} ${route.path}`] = value;
    if (route.method === "GET") aliases[`HEAD ${route.path}`] = value;
  }
  return aliases;
}

/** Credentials and impersonation params never reach the services. */
const STRIPPED_PARAMS = ["private_token", "access_token", "sudo"];

export function createGatewayService(routes: RouteDef[] = mountedRoutes): ServiceSchema {
  const config = loadConfig();
  const tokens = new TokenCache();
  const requiredServices = servicesOf(routes);
  const metadata = {
    ...API_VERSION,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: config.LICENSE_TIER !== "free",
  };

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
        {
          path: "/api/v4",
          mappingPolicy: "restrict",
          mergeParams: true,
          logging: false,
          bodyParsers: {
            json: { limit: config.MAX_BODY_BYTES, strict: false },
            urlencoded: { extended: true, limit: config.MAX_BODY_BYTES },
          },
          use: [multipartFields(config.MAX_BODY_BYTES)],
          aliases: aliasesFor(routes),
          callOptions: { timeout: config.REQUEST_TIMEOUT_MS },
          async onBeforeCall(this: unknown, ctx: Context, _route: unknown, req: Req, res: ServerResponse) {
            const def = req.$alias?.routeDef;
            if (!def) return;
            const auth = await authenticateRequest(ctx, tokens, def, req, req.$params);
            for (const key of STRIPPED_PARAMS) delete req.$params[key];
            if (def.params) Object.assign(req.$params, def.params);
            (ctx.meta as Record<string, unknown>).caller = auth?.caller ?? null;
            if (auth) (ctx.meta as Record<string, unknown>).tokenId = auth.tokenId;
            await enforceRateLimits(ctx, def, req, res, req.$params, auth?.caller ?? null);
          },
        },
      ],
  };

  const schema: ServiceSchema = {
    name: "gateway",
    mixins: [ApiGateway as unknown as ServiceSchema, settingsMixin],
    settings: settings as ServiceSchema["settings"],
    events: {
      "accounts.token.revoked"(ctx: Context<{ tokenId: number }>) {
        tokens.dropToken(ctx.params.tokenId);
      },
      "accounts.user.changed"(ctx: Context<{ userId: number }>) {
        tokens.dropUser(ctx.params.userId);
      },
      "accounts.user.deleted"(ctx: Context<{ userId: number }>) {
        tokens.dropUser(ctx.params.userId);
      },
      "gateway.caches.clear"() {
        tokens.clear();
      },
    },
    actions: {
      // GitLab answers the deprecated /version with the same metadata document as /metadata.
      version: { handler: () => metadata },
      metadata: { handler: () => metadata },
    },
    methods: {
      /** Turns a service's plain answer into HTTP: status defaults, Page headers, Reply statuses. */
      sendResponse(this: { baseUrlFor(req: Req): string }, req: Req, res: ServerResponse, data: unknown) {
        if (res.headersSent) return;
        const def = req.$alias?.routeDef;
        let status = def ? defaultStatus(def) : 200;
        let body: unknown = data;
        if (isReply(data)) {
          status = data.status;
          body = data.body;
        } else if (isPage(data)) {
          const url = new URL(req.originalUrl ?? req.url ?? "/", this.baseUrlFor(req));
          for (const [k, v] of Object.entries(paginationHeaders(data, url))) res.setHeader(k, v);
          body = data.items;
        }
        res.statusCode = status;
        if (status === 204 || status === 304 || body === null || body === undefined) {
          res.end();
          return;
        }
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify(body));
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
        const { status, body, internal } = toHttpError(err);
        if (internal) this.logger.error({ err, url: req.originalUrl ?? req.url }, "request failed");
        res.statusCode = status;
        if (body === null) {
          res.end();
          return;
        }
        res.setHeader("Content-Type", "application/json");
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
      server.on("request", (req: IncomingMessage, res: ServerResponse) => {
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
        if (answerProbe(broker, req, res, requiredServices)) return;
        handler(req, res);
      });
    },
  };
  return schema as unknown as ServiceSchema;
}
