/**
 * The accounts service's contract: its actions (those other services call and those behind its
 * routes), its route table and the durable events it publishes, with their schemas. It imports
 * nothing from the service's implementation, so depending on it never pulls the service in (see
 * @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { AccountsActions } from "./actions";
import { AccountsEvents } from "./events";

export const Accounts = { ...serviceContract("accounts"), ...AccountsActions, events: AccountsEvents };
export * from "./actions";
export * from "./params/constants";
export * from "./entities";
export * from "./events";
export * from "./params/deploy-tokens";
export * from "./params/notification-settings";
export * from "./params/resource-tokens";
export * from "./params/scim";
export * from "./params/tokens";
export * from "./params/users";
export { routes, webRoutes } from "./routes";
