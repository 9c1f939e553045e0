import { actionsOf, createMailer, implement, settingsMixin, type Mailer } from "@collab/core";
import { defineService, oneAtATime, type ServiceKit } from "@collab/db";
import { Integrations } from "@collab/integrations-contract";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { deliverDue } from "./deliveries/worker";
import { outbox, processedEvents } from "./db/schema";
import { integrationSecrets } from "./domain/secrets";
import { serviceConsumers } from "./events";
import { integrationsActions } from "./integrations.actions";
import { hooksActions } from "./hooks/hooks.actions";
import { trackersActions } from "./trackers.actions";

/**
 * Integrations of projects and groups with external tools: their settings (with inheritance from
 * ancestor groups) and the deliveries of the notifiers among them (Discord webhooks, pipeline status
 * emails), queued by event consumers and sent by a worker through the outbound URL guard.
 * Follows project and group deletions in namespaces.
 */
let mailer: Mailer | undefined;

/** The service's delivery pass, shared by its timer and the tick action: one at a time per process. */
const deliveryPasses = new WeakMap<ServiceKit, () => Promise<number>>();
function deliveryPass(kit: ServiceKit): () => Promise<number> {
  let pass = deliveryPasses.get(kit);
  if (!pass) {
    pass = oneAtATime(() => deliverDue(kit.db, kit.broker, () => (mailer ??= createMailer(kit.config, kit.logger)), kit.keyring));
    deliveryPasses.set(kit, pass);
  }
  return pass;
}

export const integrationsService: ServiceSchema = defineService({
  name: "integrations",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  // The outbound guard and URL validation act on allow_local_requests_from_web_hooks_and_services.
  mixins: [settingsMixin],
  actions: (kit) => [
    integrationsActions(kit),
    hooksActions(kit),
    trackersActions(kit),
    actionsOf("integrations", [
      /**
       * One delivery pass (the timer runs the same, one at a time): answers how many deliveries
       * were attempted, once those the timer's pass had claimed are done too.
       */
      implement(Integrations.deliveries.tick, async () => ({ attempted: await deliveryPass(kit)() })),
    ]),
  ],
  eventTables: { outbox, processedEvents },
  secrets: integrationSecrets,
  consumes: () => serviceConsumers(),
  workers: (kit) => [{ name: "integration deliveries", everyMs: kit.config.INTEGRATIONS_DELIVERY_TICK_MS, run: () => deliveryPass(kit)() }],
  stopping: () => {
    mailer?.close();
    mailer = undefined;
  },
});
