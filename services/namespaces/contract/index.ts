/**
 * The namespaces service's contract: its actions (those other services call and those behind its
 * routes), its durable events, its entities and route params, and its route table. It imports
 * nothing from the service's implementation, so depending on it never pulls the service in (see
 * @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { NamespacesActions } from "./actions";
import { NamespacesEvents } from "./events";

export const Namespaces = { ...serviceContract("namespaces"), ...NamespacesActions, events: NamespacesEvents };
export * from "./actions";
export * from "./entities";
export * from "./events";
export { routes, webRoutes } from "./routes";
export * from "./params/deletion";
export * from "./params/groups";
export * from "./params/invitations";
export * from "./params/labels";
export * from "./params/members";
export * from "./params/milestones";
export * from "./params/projects";
export * from "./params/protected-branches";
