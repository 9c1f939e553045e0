/**
 * The packages service's contract: its actions (its routes' and those other services call), the
 * durable events it publishes, with their schemas, and its route table. It imports nothing from
 * the service's implementation, so depending on it never pulls the service in (see @collab/core
 * contract.ts).
 */
import { serviceContract } from "@collab/core";
import { PackagesActions } from "./actions";
import { PackagesEvents } from "./events";

export const Packages = { ...serviceContract("packages"), ...PackagesActions, events: PackagesEvents };
export * from "./actions";
export * from "./entities";
export * from "./events";
export * from "./params/formats";
export * from "./params/packages";
export * from "./params/protection";
export { routes } from "./routes";
