import type { RouteDef } from "@collab/core";
import { routes as accounts } from "@collab/accounts/routes";
import { routes as namespaces } from "@collab/namespaces/routes";

/** The gateway's own endpoints. */
const own: RouteDef[] = [
  { method: "GET", path: "/version", action: "gateway.version" },
  { method: "GET", path: "/metadata", action: "gateway.metadata" },
];

/** Every REST operation of /api/v4: the composition root, as GitLab's api.rb mounts its resources. */
export const mountedRoutes: RouteDef[] = [...own, ...accounts, ...namespaces];
