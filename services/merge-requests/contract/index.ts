/**
 * The merge-requests service's contract: its actions (those other services call and those its
 * routes call) and the durable events it publishes, with their schemas, and its route table. It
 * imports nothing from the service's implementation, so depending on it never pulls the service in
 * (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { MergeRequestsActions } from "./actions";
import { MergeRequestsEvents } from "./events";

export const MergeRequests = { ...serviceContract("merge-requests"), ...MergeRequestsActions, events: MergeRequestsEvents };
export * from "./actions";
export * from "./entities";
export * from "./hook-attrs";
export * from "./events";
export * from "./params/approvals";
export * from "./params/closing-issues";
export * from "./params/commit-notes";
export * from "./params/merge-requests";
export { routes } from "./routes";
