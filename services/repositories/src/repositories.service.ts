import { consumersOf, defineService, oneAtATime, type ServiceKit } from "@collab/db";
import { STORAGES_METADATA_KEY } from "@collab/repositories-contract";
import type { Service, ServiceSchema } from "moleculer";
import path from "node:path";
import { gitActions } from "./api/git.actions";
import { pushesActions } from "./api/pushes.actions";
import { refsBusActions } from "./api/refs-bus.actions";
import { refsActions } from "./api/refs.actions";
import { mergeRequestsRepositoryActions } from "./api/merge-requests.actions";
import { repositoriesActions } from "./api/repositories.actions";
import { commitsActions } from "./content/commits.actions";
import { filesActions } from "./content/files.actions";
import { repositoryActions } from "./content/repository.actions";
import { outbox, processedEvents } from "./db/schema";
import { LocalStorages } from "./domain/storages";
import { namespacesSubscriptions } from "./namespaces.consumers";
import { snippetsSubscriptions } from "./snippets.consumers";
import { HookServer } from "./push/hook-server";
import { PUSH_SWEEP_EVERY_MS, sweepPendingPushes } from "./push/pending-pushes";

/**
 * Advertises the storages this process serves in the service's metadata (moleculer's INFO
 * packets), where callers' routing reads them (`onStorage` of the contract). Set when the broker
 * creates the service: configuration is read then, not at import time.
 */
const advertiseStorages = (storages: LocalStorages): Partial<ServiceSchema> => ({
  created(this: Service) {
    (this.metadata as Record<string, unknown>)[STORAGES_METADATA_KEY] = storages.names;
  },
});

/** Repositories: the bare git repositories of projects on named storages, and git's HTTP transport to them. */
export function repositoriesService(): ServiceSchema {
  const storages = new LocalStorages();
  let hooks: HookServer | undefined;
  let sweep: (() => Promise<number>) | undefined;
  /** The pending pushes' sweep, one run at a time (worker, start and action share it); kit is filled once started. */
  const sweeper = (kit: ServiceKit) => (sweep ??= oneAtATime(() => sweepPendingPushes(kit, storages)));
  const hookServer = () => {
    if (!hooks) throw new Error("repositories: the push hook server has not started");
    return hooks;
  };
  return defineService({
    name: "repositories",
    migrations: path.join(__dirname, "../drizzle"),
    dependencies: ["namespaces"],
    mixins: [advertiseStorages(storages) as ServiceSchema],
    actions: (kit) => [
      repositoriesActions(kit, storages),
      refsBusActions(kit, storages),
      refsActions(kit, storages),
      mergeRequestsRepositoryActions(kit, storages),
      gitActions(kit, storages, hookServer),
      commitsActions(kit, storages),
      repositoryActions(kit, storages),
      filesActions(kit, storages),
      pushesActions(() => sweeper(kit)()),
    ],
    eventTables: { outbox, processedEvents },
    consumes: (kit) => consumersOf("repositories", [...namespacesSubscriptions(kit, storages), ...snippetsSubscriptions(kit, storages)]),
    // Pushes whose events a dead process did not write (its own after a restart included).
    workers: (kit) => [{ name: "pending pushes sweep", everyMs: PUSH_SWEEP_EVERY_MS, run: () => sweeper(kit)() }],
    async started(kit) {
      hooks = await HookServer.start((err) => kit.logger.error({ err: err.message }, "push check failed"));
      void sweeper(kit)().catch((err: Error) => kit.logger.warn({ err: err.message }, "pending pushes sweep failed"));
    },
    async stopping() {
      await hooks?.stop();
      hooks = undefined;
    },
  });
}
