/**
 * The runners service's contract: its actions (routes, and what other services call) with their
 * schemas, the durable events it publishes, and its REST routes. It imports nothing from the
 * service's implementation, so depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { RunnersActions } from "./actions";
import { RunnersEvents } from "./events";

export const Runners = { ...serviceContract("runners"), ...RunnersActions, events: RunnersEvents };
export * from "./actions";
export * from "./events";
export { routes } from "./routes";
export * from "./params/runners";
export * from "./params/schedules";
export * from "./params/protected-environments";
export * from "./params/artifacts";
