import type { RouteDef } from "@collab/core";

const S = "error-tracking";
const P = "/projects/:id/error_tracking";
/**
 * Collector routes take the SDK's body as bytes (any media type, gzip allowed) and its auth
 * header; they are anonymous at the gateway: the client key in the request is the credential.
 */
const COLLECTOR = { auth: "optional", status: 200, rawBody: { headers: ["x-sentry-auth"] } } as const;

export const routes: RouteDef[] = [
  { method: "GET", path: `${P}/settings`, action: `${S}.settings.get` },
  { method: "PATCH", path: `${P}/settings`, action: `${S}.settings.patch` },
  { method: "PUT", path: `${P}/settings`, action: `${S}.settings.put` },
  { method: "GET", path: `${P}/client_keys`, action: `${S}.clientKeys.list` },
  { method: "POST", path: `${P}/client_keys`, action: `${S}.clientKeys.create` },
  { method: "DELETE", path: `${P}/client_keys/:key_id`, action: `${S}.clientKeys.delete`, status: 200 },
  // The paths a DSN `…/api/v4/error_tracking/collector/<id>` makes an SDK post to.
  { method: "POST", path: "/error_tracking/collector/api/:id/envelope", action: `${S}.collector.envelope`, ...COLLECTOR },
  { method: "POST", path: "/error_tracking/collector/api/:id/store", action: `${S}.collector.store`, ...COLLECTOR },
];
