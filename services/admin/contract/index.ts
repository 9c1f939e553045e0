/**
 * The admin service's contract: its actions (the routes' and those other services call), the
 * durable events it publishes, with their schemas, and its route table. It imports nothing from
 * the service's implementation, so depending on it never pulls the service in (see @collab/core
 * contract.ts).
 */
import { serviceContract } from "@collab/core";
import { AdminActions } from "./actions";
import { AdminEvents } from "./events";

export const Admin = { ...serviceContract("admin"), ...AdminActions, events: AdminEvents };
export * from "./actions";
export * from "./events";
export { routes } from "./routes";
// The params of the route actions, and the settings' types (names, parsers, tiers).
export * from "./params/broadcast";
export * from "./params/dead-letters";
export * from "./params/service-accounts";
export * from "./params/settings";
export * from "./params/storage-moves";
