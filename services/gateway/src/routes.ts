import type { RouteDef } from "@collab/core";
import { Gateway } from "./contracts";
import { routes as accounts, webRoutes as accountsWeb } from "@collab/accounts-contract";
import { routes as admin } from "@collab/admin-contract";
import { routes as namespaces, webRoutes as namespacesWeb } from "@collab/namespaces-contract";
import { routes as issues } from "@collab/issues-contract";
import { routes as mergeRequests } from "@collab/merge-requests-contract";
import { routes as runners } from "@collab/runners-contract";
import { routes as integrations } from "@collab/integrations-contract";
import { routes as activity } from "@collab/activity-contract";
import { routes as importExport } from "@collab/import-export-contract";
import { routes as errorTracking } from "@collab/error-tracking-contract";
import { routes as packages } from "@collab/packages-contract";

/** The gateway's own endpoints: GitLab's Metadata API, which read_user tokens may read. */
const own: RouteDef[] = [
  { method: "GET", path: "/version", action: Gateway.version.name, scopes: ["read_user"] },
  { method: "GET", path: "/metadata", action: Gateway.metadata.name, scopes: ["read_user"] },
];

/** Every REST operation of /api/v4: the composition root, as GitLab's api.rb mounts its resources. */
export const mountedRoutes: RouteDef[] = [...own, ...accounts, ...namespaces, ...issues, ...mergeRequests, ...admin, ...runners, ...importExport, ...errorTracking, ...integrations, ...activity, ...packages];

/**
 * Endpoints outside /api/v4 (paths from the server root): the sign-up form's POST /users, the
 * invitation links of mails (/-/invites/:token).
 */
export const mountedWebRoutes: RouteDef[] = [...accountsWeb, ...namespacesWeb];
