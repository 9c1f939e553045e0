import { consumersOf, on, type ServiceKit, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { removeProjectSnippets } from "./domain/cleanup";

/** A deleted project's snippets go with it (durable event, applied once, in its transaction). */
export const namespacesConsumers = (kit: ServiceKit): Subscriptions =>
  consumersOf("snippets", [on(Namespaces.events.projectDeleted, (p, tx) => removeProjectSnippets(kit, p, tx))]);
