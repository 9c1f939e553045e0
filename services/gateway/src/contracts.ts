import * as accounts from "@collab/accounts-contract";
import * as activity from "@collab/activity-contract";
import * as admin from "@collab/admin-contract";
import { actionContract, actionEntriesOf, type ActionContract, type RouteDef } from "@collab/core";
import * as errorTracking from "@collab/error-tracking-contract";
import * as importExport from "@collab/import-export-contract";
import * as integrations from "@collab/integrations-contract";
import * as issues from "@collab/issues-contract";
import * as mergeRequests from "@collab/merge-requests-contract";
import * as namespaces from "@collab/namespaces-contract";
import * as packages from "@collab/packages-contract";
import * as repositories from "@collab/repositories-contract";
import * as snippets from "@collab/snippets-contract";
import * as runners from "@collab/runners-contract";
import { z } from "zod";

/** GitLab's Metadata API document (GET /metadata, and the deprecated /version). */
const MetadataSchema = z.object({
  version: z.string(),
  revision: z.string(),
  kas: z.object({ enabled: z.boolean(), externalUrl: z.string().nullable(), externalK8sProxyUrl: z.string().nullable(), version: z.string().nullable() }),
  enterprise: z.boolean(),
});

/** The gateway's own actions: the routes it answers itself. */
export const Gateway = {
  version: actionContract("gateway.version", { input: () => z.object({}), output: () => MetadataSchema, idempotent: true }),
  metadata: actionContract("gateway.metadata", { input: () => z.object({}), output: () => MetadataSchema, idempotent: true }),
};

/** A service as the gateway mounts it: its contract (the entries) and its route tables. */
export interface MountedService {
  contract: object;
  /** Under /api/v4. */
  routes: readonly RouteDef[];
  /** Outside /api/v4 (paths from the server root). */
  webRoutes?: readonly RouteDef[];
}

/**
 * Every domain service the gateway mounts, from its contract package alone (no service's code), in
 * mounting order, as GitLab's api.rb mounts its resources. Adding a service is one line here.
 */
export const MOUNTED_SERVICES: readonly MountedService[] = [
  { contract: accounts.Accounts, routes: accounts.routes, webRoutes: accounts.webRoutes },
  { contract: namespaces.Namespaces, routes: namespaces.routes, webRoutes: namespaces.webRoutes },
  { contract: repositories.Repositories, routes: repositories.routes },
  { contract: issues.Issues, routes: issues.routes },
  { contract: mergeRequests.MergeRequests, routes: mergeRequests.routes },
  { contract: admin.Admin, routes: admin.routes },
  { contract: runners.Runners, routes: runners.routes },
  { contract: importExport.ImportExport, routes: importExport.routes },
  { contract: errorTracking.ErrorTracking, routes: errorTracking.routes },
  { contract: integrations.Integrations, routes: integrations.routes },
  { contract: activity.Activity, routes: activity.routes },
  { contract: packages.Packages, routes: packages.routes },
  { contract: snippets.Snippets, routes: snippets.routes },
];

/** Every contract the gateway knows: its own and each mounted service's. */
export const SERVICE_CONTRACTS: readonly object[] = [Gateway, ...MOUNTED_SERVICES.map((s) => s.contract)];

/** Action name → its contract entry, over every contract. */
export function contractActions(contracts: readonly object[] = SERVICE_CONTRACTS): Map<string, ActionContract> {
  return new Map(contracts.flatMap(actionEntriesOf).map((a) => [a.name, a]));
}
