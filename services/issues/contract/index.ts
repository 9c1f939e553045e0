/**
 * The issues service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas, and its REST routes. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { IssuesActions } from "./actions";
import { IssuesEvents } from "./events";

export const Issues = { ...serviceContract("issues"), ...IssuesActions, events: IssuesEvents };
export * from "./actions";
export * from "./issue";
export * from "./hook-attrs";
export * from "./epic-issues";
export * from "./issue-links";
export * from "./params/issue-links";
export * from "./events";
export * from "./params/issues";
export * from "./params/epics";
export { EpicSchema, type Epic } from "./epics";
export { routes } from "./routes";
