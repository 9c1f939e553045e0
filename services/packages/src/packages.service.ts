import { actionsOf, implement } from "@collab/core";
import { consumersOf, defineService, on, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { Packages } from "@collab/packages-contract";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { z } from "zod";
import { outbox, processedEvents } from "./db/schema";
import { destroyPending, removeProjectData } from "./domain/destruction";
import { genericActions } from "./generic.actions";
import { npmActions } from "./npm.actions";
import { packagesActions } from "./packages.actions";
import { protectionActions } from "./protection.actions";

/** A deleted project's packages are marked for the worker and its protection rules go (durable event, applied once). */
const serviceConsumers = (): Subscriptions => consumersOf("packages", [on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(tx, p.projectId))]);

/**
 * The package registry: packages of projects (generic files, npm), their files' bytes in this
 * service's own tables (so every replica serves every file), the Packages API over them,
 * protection rules, and the worker that removes what was deleted (PACKAGES_DESTRUCTION_TICK_MS).
 */
export const packagesService: ServiceSchema = defineService({
  name: "packages",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: (kit) => [
    packagesActions(kit),
    genericActions(kit),
    npmActions(kit),
    protectionActions(kit),
    actionsOf("packages", [
      /** One destruction pass (the timer runs the same): answers how many packages and files went. */
      implement(Packages.destruction.tick, () => destroyPending(kit.db)),
    ]),
  ],
  eventTables: { outbox, processedEvents },
  consumes: () => serviceConsumers(),
  workers: (kit) => [{ name: "package destruction", everyMs: kit.config.PACKAGES_DESTRUCTION_TICK_MS, run: () => destroyPending(kit.db) }],
});
