import { actionsOf, createMailer, implement, settingsMixin, type Mailer } from "@collab/core";
import { defineService } from "@collab/db";
import { Integrations } from "@collab/integrations/contract";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { deliverDue } from "./deliveries/worker";
import { outbox, processedEvents } from "./db/schema";
import { integrationSecrets } from "./domain/secrets";
import { serviceConsumers } from "./events";
import { integrationsActions } from "./integrations.actions";

/**
 * Integrations of projects and groups with external tools: their settings (with inheritance from
 * ancestor groups) and the deliveries of the notifiers among them (Discord webhooks, pipeline status
 * emails), queued by event consumers and sent by a worker through the outbound URL guard.
 * Follows project and group deletions in namespaces.
 */
let mailer: Mailer | undefined;

export const integrationsService: ServiceSchema = defineService({
  name: "integrations",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  // The outbound guard and URL validation act on allow_local_requests_from_web_hooks_and_services.
  mixins: [settingsMixin],
  actions: (kit) => {
    const mail = () => (mailer ??= createMailer(kit.config, kit.logger));
    return [
      integrationsActions(kit),
      actionsOf("integrations", [
        /** One delivery pass (the timer runs the same); answers how many deliveries were attempted. */
        implement(Integrations.deliveries.tick, async () => ({ attempted: await deliverDue(kit.db, kit.broker, mail, kit.keyring) })),
      ]),
    ];
  },
  eventTables: { outbox, processedEvents },
  secrets: integrationSecrets,
  consumes: () => serviceConsumers(),
  workers: (kit) => [{ name: "integration deliveries", everyMs: kit.config.INTEGRATIONS_DELIVERY_TICK_MS, run: () => deliverDue(kit.db, kit.broker, () => (mailer ??= createMailer(kit.config, kit.logger)), kit.keyring).then(() => undefined) }],
  stopping: () => {
    mailer?.close();
    mailer = undefined;
  },
});
