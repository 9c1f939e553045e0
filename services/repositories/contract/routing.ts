/**
 * The client side of the repositories service's routing: each replica serves the storages its
 * REPOSITORY_STORAGES names and advertises them in its service metadata (`repositoryStorages`,
 * carried by moleculer's INFO packets to every node); a call about a repository is sent to a
 * replica serving the repository's storage with moleculer's `nodeID` call option. Every caller
 * builds its call options here: `call(ctx, Repositories.…, params, onStorage(ctx, storage))`.
 */
import { ApiError } from "@collab/core";

export const REPOSITORIES_SERVICE = "repositories";
/** The service metadata key naming the storages a replica serves. */
export const STORAGES_METADATA_KEY = "repositoryStorages";

/** What routing needs of moleculer: its registry's service list (no moleculer import in a contract). */
export interface ServiceRegistryView {
  registry: {
    getServiceList(opts: { onlyAvailable?: boolean; skipInternal?: boolean }): { name: string; nodeID?: string; metadata?: Record<string, unknown> }[];
  };
}
type Via = ServiceRegistryView | { broker: ServiceRegistryView };

const registryOf = (via: Via): ServiceRegistryView => ("registry" in via ? via : via.broker);

/** The ids of the available nodes whose repositories service serves `storage`. */
export function nodesServing(via: Via, storage: string): string[] {
  return registryOf(via)
    .registry.getServiceList({ onlyAvailable: true, skipInternal: true })
    .filter((s) => s.name === REPOSITORIES_SERVICE && s.nodeID !== undefined)
    .filter((s) => {
      const served = s.metadata?.[STORAGES_METADATA_KEY];
      return Array.isArray(served) && served.includes(storage);
    })
    .map((s) => s.nodeID!);
}

/** No replica serves the storage (down, or a storage no process names): GitLab's 503 when Gitaly is unavailable. */
export const storageUnavailable = (storage: string) =>
  new ApiError(503, { message: `503 Service Unavailable - the repository storage ${storage} is not available` }, "STORAGE_UNAVAILABLE");

/**
 * Call options sending a call to a replica serving `storage` (one of them at random when several
 * do, e.g. the workers of `npm start`, which share their folders). 503 when none does.
 */
export function onStorage<O extends object>(via: Via, storage: string, opts?: O): O & { nodeID: string } {
  const nodes = nodesServing(via, storage);
  if (!nodes.length) throw storageUnavailable(storage);
  return { ...(opts ?? ({} as O)), nodeID: nodes[Math.floor(Math.random() * nodes.length)] };
}
