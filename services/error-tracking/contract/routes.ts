import type { RouteDef } from "@collab/core";
import { ErrorTrackingActions } from "./actions";

const P = "/projects/:id/error_tracking";

/**
 * Collector routes take the SDK's body as bytes (any media type, gzip allowed) and its auth
 * header; they are anonymous at the gateway: the client key in the request is the credential.
 */
const COLLECTOR = { auth: "optional", status: 200, rawBody: { headers: ["x-sentry-auth"] } } as const;

export const routes: RouteDef[] = [
  { method: "GET", path: `${P}/settings`, action: ErrorTrackingActions.settings.get.name },
  { method: "PATCH", path: `${P}/settings`, action: ErrorTrackingActions.settings.patch.name },
  { method: "PUT", path: `${P}/settings`, action: ErrorTrackingActions.settings.put.name },
  { method: "GET", path: `${P}/client_keys`, action: ErrorTrackingActions.clientKeys.list.name },
  { method: "POST", path: `${P}/client_keys`, action: ErrorTrackingActions.clientKeys.create.name },
  { method: "DELETE", path: `${P}/client_keys/:key_id`, action: ErrorTrackingActions.clientKeys.delete.name, status: 200 },
  // The paths a DSN `…/api/v4/error_tracking/collector/<id>` makes an SDK post to.
  { method: "POST", path: "/error_tracking/collector/api/:id/envelope", action: ErrorTrackingActions.collector.envelope.name, ...COLLECTOR },
  { method: "POST", path: "/error_tracking/collector/api/:id/store", action: ErrorTrackingActions.collector.store.name, ...COLLECTOR },
];
