/**
 * The activity service's contract: its actions (its routes'), the durable events it publishes,
 * with their schemas, and its route table. It imports nothing from the service's implementation,
 * so depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { ActivityActions } from "./actions";
import { ActivityEvents } from "./events";

export const Activity = { ...serviceContract("activity"), ...ActivityActions, events: ActivityEvents };
export * from "./actions";
export * from "./entities";
export * from "./events";
export * from "./params/events";
export * from "./params/group-activity";
export * from "./params/todos";
export { routes } from "./routes";
