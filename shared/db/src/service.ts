import { actionsOf, implement, loadConfig, externalUrl, mergeActions, secretsKeyring, serviceContract, type Config, type Keyring } from "@collab/core";
import type { Logger, ServiceBroker, ServiceSchema } from "moleculer";
import { openDatabase, type Database, type Db } from "./database";
import type { SecretStore } from "./secret-store";
import { startWorkers, type Worker } from "./workers";
import { applyEvents, applyFromStream, registerLocalConsumer, replayEvent, unregisterLocalConsumers, type Consumers, type StreamMessage, type Subscriptions } from "./events/consumers";
import { eventSubject, type EventEnvelope } from "./events/envelope";
import { startRelay, type EventBus, type Relay } from "./events/outbox";
import type { EventTables } from "./events/tables";

/** What a service's actions, finders and domain services work with. */
export interface ServiceKit {
  readonly config: Config;
  readonly baseUrl: string;
  db: Db;
  database: Database;
  broker: ServiceBroker;
  logger: Logger;
  /** Durable domain events of this service (defineService's `eventTables`). */
  events: EventBus;
  /** Seals and opens the credentials the service stores (defineService's `secrets`). */
  keyring: Keyring;
}

type Actions = NonNullable<ServiceSchema["actions"]>;
type Events = NonNullable<ServiceSchema["events"]>;

export interface ServiceDefinition {
  name: string;
  /** Folder of drizzle-kit migrations owned by this service. */
  migrations?: string;
  /** Services that must be reachable before this one reports ready. */
  dependencies?: string[];
  /** Moleculer mixins merged into the service (e.g. settingsMixin from @collab/core). */
  mixins?: ServiceSchema[];
  /** The service's actions: one map, or several (a name in two of them throws, see mergeActions). */
  actions: (kit: ServiceKit) => Actions | Actions[];
  events?: (kit: ServiceKit) => Events;
  /** Periodic jobs, started once the service has started and stopped before it stops. */
  workers?: (kit: ServiceKit) => Worker[];
  /** The service's outbox and processed-events tables (eventTables(schema)): needed to publish or consume durable events. */
  eventTables?: EventTables;
  /** Durable domain events this service applies: consumersOf(service, [on(producer entry, handler), …]) of @collab/db. */
  consumes?: (kit: ServiceKit) => Subscriptions;
  /**
   * Credentials this service stores sealed: its keyring is read from SECRETS_KEY when the service
   * is created, so without the key the process refuses to start.
   */
  secrets?: SecretStore;
  started?: (kit: ServiceKit) => Promise<void> | void;
  stopping?: (kit: ServiceKit) => Promise<void> | void;
}

/**
 * A Moleculer service backed by the service's own tables. Actions receive a kit (db, config,
 * logger) through a closure rather than `this`, which keeps handlers plain typed functions.
 */
export function defineService(def: ServiceDefinition): ServiceSchema {
  const kit = {} as { -readonly [K in keyof ServiceKit]: ServiceKit[K] };
  let stopWorkers: (() => Promise<void>) | undefined;
  let relay: Relay | undefined;
  const common = serviceContract(def.name);
  const consumers: Consumers = def.consumes?.(kit) ?? {};
  const tables = def.eventTables;
  if (Object.keys(consumers).length && !tables) throw new Error(`${def.name}: consumes needs eventTables`);
  // Over NATS: one durable consumer group per (service, event), whose replicas share the messages.
  const channels = Object.fromEntries(
    Object.entries(consumers).map(([name, c]) => [
      eventSubject(name),
      { group: `${def.name}.${name}`, handler: (event: EventEnvelope, message: StreamMessage) => applyFromStream(kit, tables!, def.name, c, event, message) },
    ]),
  );
  return {
    name: def.name,
    dependencies: def.dependencies,
    ...(def.mixins ? { mixins: def.mixins } : {}),
    actions: mergeActions(def.name, [
      ...[def.actions(kit)].flat(),
      actionsOf(def.name, [
      /**
       * Bus only: applies a dead letter of this service's consumers once more (the admin service's
       * replay). Fails if the consumer still cannot apply it, which leaves the letter in place.
       */
      ...(Object.keys(consumers).length
        ? [implement(common.replayEvent, async (ctx) => {
            await replayEvent(kit, tables!, consumers, ctx.params.event as EventEnvelope);
            return { replayed: true as const };
          })]
        : []),
      /** Readiness of this service instance: its database answers. */
      implement(common.health, async () => {
        await kit.database?.ping();
        return { status: "ok" as const };
      }),
      ]),
    ]),
    events: def.events?.(kit) ?? {},
    // Read by the @moleculer/channels middleware (only present over NATS; see @collab/core eventChannels).
    ...({ channels } as object),
    created() {
      // Configuration is read when the broker creates the service, not at import time.
      kit.config = loadConfig();
      kit.baseUrl = externalUrl(kit.config);
      if (def.secrets) kit.keyring = secretsKeyring(kit.config, `the ${def.name} service`);
    },
    async started() {
      const config = kit.config;
      kit.broker = this.broker;
      kit.logger = this.logger;
      if (def.migrations) {
        kit.database = await openDatabase(config.DATABASE_URL);
        kit.db = kit.database.db;
        await kit.database.migrate({ folder: def.migrations, table: `__migrations_${def.name}` });
      }
      if (tables) {
        relay = startRelay(kit, tables, config.EVENTS_RELAY_INTERVAL_MS, config.EVENTS_RELAY_LINGER_MS);
        kit.events = relay;
        const applyBatch = (events: import("./events/envelope").EventEnvelope[]) => applyEvents(kit, tables, consumers, events);
        for (const name of Object.keys(consumers)) registerLocalConsumer(kit.broker, def.name, name, applyBatch);
      }
      await def.started?.(kit);
      if (def.workers) stopWorkers = startWorkers(def.workers(kit), kit.logger);
    },
    async stopped() {
      // Workers finish the step they are on, and the relay its pass, before the pool closes.
      await stopWorkers?.();
      stopWorkers = undefined;
      await relay?.stop();
      relay = undefined;
      unregisterLocalConsumers(kit.broker, def.name);
      await def.stopping?.(kit);
      await kit.database?.release();
    },
  };
}
