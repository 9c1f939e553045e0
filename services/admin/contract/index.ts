/**
 * The admin service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { AdminActions } from "./actions";
import { AdminEvents } from "./events";

export const Admin = { ...serviceContract("admin"), ...AdminActions, events: AdminEvents };
export * from "./actions";
export * from "./events";
