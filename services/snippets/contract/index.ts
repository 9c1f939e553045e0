/**
 * The snippets service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { SnippetsActions } from "./actions";
import { SnippetsEvents } from "./events";

export const Snippets = { ...serviceContract("snippets"), ...SnippetsActions, events: SnippetsEvents };
export * from "./actions";
export * from "./entities";
export * from "./events";
export * from "./params";
export * from "./storage";
export { routes } from "./routes";
