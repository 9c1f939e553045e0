import { Admin } from "@collab/admin-contract";
import { addressMatcher, call, currentSettings, tooManyRequests, type Caller, type RouteDef } from "@collab/core";
import { isNoteCreatingAction } from "@collab/notes-contract";
import { Issues } from "@collab/issues-contract";
import type { Context } from "moleculer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";

/**
 * Rate limits driven by application settings, checked at the gateway before the request reaches
 * its service. Counters live in PostgreSQL behind `admin.rateLimits.hit`, so every gateway replica
 * counts against the same window; a limit of 0 disables it (and costs nothing).
 *
 * - issues_create_limit: POST /projects/:id/issues, per project and user per minute (GitLab's
 *   check_rate_limit!(:issues_create)) → 429 {"message":{"error":"This endpoint has been requested too many times. Try again later."}}
 * - notes_create_limit: note creation (notes, new threads, replies) on every noteable whose service mounts
 *   the shared notes routes (@collab/notes), per user per minute → same 429.
 * - projects_api_rate_limit_unauthenticated: anonymous GET /projects, per IP per 10 minutes, answered
 *   as GitLab's Rack::Attack throttle: plain text rate_limiting_response_text ("Retry later"), with
 *   Retry-After and RateLimit-* headers (also on the allowed answers, as GitLab does when throttled).
 */
interface Limit {
  setting: "issues_create_limit" | "notes_create_limit" | "projects_api_rate_limit_unauthenticated";
  windowSeconds: number;
  key(def: RouteDef, params: Record<string, unknown>, caller: Caller | null, ip: string): string | null;
  throttle?: string;
}

const LIMITS: Limit[] = [
  {
    setting: "issues_create_limit",
    windowSeconds: 60,
    key: (def, params, caller) => (def.action === Issues.issues.create.name && caller ? `issues_create:${String(params.id)}:${caller.id}` : null),
  },
  {
    setting: "notes_create_limit",
    windowSeconds: 60,
    key: (def, _params, caller) => (isNoteCreatingAction(def.action) && caller ? `notes_create:${caller.id}` : null),
  },
  {
    setting: "projects_api_rate_limit_unauthenticated",
    windowSeconds: 600,
    key: (def, _params, caller, ip) => (def.method === "GET" && def.path === "/projects" && !caller ? `projects_api_unauthenticated:${ip}` : null),
    throttle: "throttle_unauthenticated_projects_api",
  },
];

/** A throttled answer that is not JSON: plain text with its headers (see sendError). */
export class ThrottledError extends Error {
  constructor(
    readonly text: string,
    readonly headers: Record<string, string>,
  ) {
    super(text);
    this.name = "ThrottledError";
  }
}

/**
 * The client's address: the peer's, unless the peer is one of TRUSTED_PROXIES; then
 * X-Forwarded-For is read from its right end (the hop that proxy saw), past the other trusted
 * proxies, to the first address none of them vouches for. A forged header from anyone else (or a
 * forged left part of it) changes nothing.
 */
export function clientIpResolver(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  const trusted = addressMatcher(trustedProxies);
  const plain = (ip: string) => ip.replace(/^::ffff:(?=\d+\.)/, "");
  return (req) => {
    const peer = plain(req.socket.remoteAddress ?? "unknown");
    if (!trusted(peer)) return peer;
    const header = req.headers["x-forwarded-for"];
    const hops = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").map((h) => plain(h.trim().replace(/^\[(.*)\](?::\d+)?$/, "$1")));
    for (let i = hops.length - 1; i >= 0; i--) {
      if (!isIP(hops[i])) return peer; // a hop that is no address: nothing before it can be believed
      if (!trusted(hops[i])) return hops[i];
    }
    return hops[0] && isIP(hops[0]) ? hops[0] : peer;
  };
}

export async function enforceRateLimits(ctx: Context, def: RouteDef, req: IncomingMessage, res: ServerResponse, params: Record<string, unknown>, caller: Caller | null, clientIp: (req: IncomingMessage) => string) {
  const settings = currentSettings();
  for (const limit of LIMITS) {
    const threshold = Number(settings[limit.setting] ?? 0);
    if (!threshold) continue;
    const key = limit.key(def, params, caller, clientIp(req));
    if (!key) continue;
    const { count, reset_at } = await call(ctx, Admin.rateLimits.hit, { key, window_seconds: limit.windowSeconds });
    if (!limit.throttle) {
      if (count > threshold) throw tooManyRequests();
      continue;
    }
    const now = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      "RateLimit-Name": limit.throttle,
      "RateLimit-Limit": String(threshold),
      "RateLimit-Observed": String(count),
      "RateLimit-Remaining": String(Math.max(0, threshold - count)),
      "RateLimit-Reset": String(reset_at),
    };
    if (count > threshold) {
      headers["RateLimit-ResetTime"] = new Date(reset_at * 1000).toUTCString();
      headers["Retry-After"] = String(Math.max(0, reset_at - now));
      throw new ThrottledError(`${settings.rate_limiting_response_text || "Retry later"}\n`, headers);
    }
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  }
}
