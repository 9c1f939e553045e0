import type { RouteDef } from "@collab/core";
import { Gateway, MOUNTED_SERVICES } from "./contracts";

/** The gateway's own endpoints: GitLab's Metadata API, which read_user tokens may read. */
const own: RouteDef[] = [
  { method: "GET", path: "/version", action: Gateway.version.name, scopes: ["read_user"] },
  { method: "GET", path: "/metadata", action: Gateway.metadata.name, scopes: ["read_user"] },
];

/** Every REST operation of /api/v4: the gateway's own, then each mounted service's. */
export const mountedRoutes: RouteDef[] = [...own, ...MOUNTED_SERVICES.flatMap((s) => s.routes)];

/**
 * Endpoints outside /api/v4 (paths from the server root): the sign-up form's POST /users, the
 * invitation links of mails (/-/invites/:token).
 */
export const mountedWebRoutes: RouteDef[] = MOUNTED_SERVICES.flatMap((s) => s.webRoutes ?? []);
