import { Accounts } from "@collab/accounts-contract";
import { Activity } from "@collab/activity-contract";
import { Admin } from "@collab/admin-contract";
import { actionContract, actionEntriesOf, type ActionContract } from "@collab/core";
import { ErrorTracking } from "@collab/error-tracking-contract";
import { ImportExport } from "@collab/import-export-contract";
import { Integrations } from "@collab/integrations-contract";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { Packages } from "@collab/packages-contract";
import { Runners } from "@collab/runners-contract";
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

/** Every service's contract: what the gateway mounts and documents, without any service's code. */
export const SERVICE_CONTRACTS: readonly object[] = [Gateway, Accounts, Namespaces, Issues, MergeRequests, Admin, Runners, ImportExport, ErrorTracking, Integrations, Activity, Packages];

/** Action name → its contract entry, over every contract. */
export function contractActions(contracts: readonly object[] = SERVICE_CONTRACTS): Map<string, ActionContract> {
  return new Map(contracts.flatMap(actionEntriesOf).map((a) => [a.name, a]));
}
