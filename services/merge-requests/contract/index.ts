/**
 * The merge-requests service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { MergeRequestsActions } from "./actions";
import { MergeRequestsEvents } from "./events";

export const MergeRequests = { ...serviceContract("merge-requests"), ...MergeRequestsActions, events: MergeRequestsEvents };
export * from "./actions";
export * from "./events";
