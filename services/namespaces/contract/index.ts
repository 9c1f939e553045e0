/**
 * The namespaces service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { NamespacesActions } from "./actions";
import { NamespacesEvents } from "./events";

export const Namespaces = { ...serviceContract("namespaces"), ...NamespacesActions, events: NamespacesEvents };
export * from "./actions";
export * from "./events";
// The params of the route actions other services call too (members.list, members.add, groups.create).
export * from "./params/members";
export * from "./params/groups";
