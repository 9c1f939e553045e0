/**
 * The integrations service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { IntegrationsActions } from "./actions";
import { IntegrationsEvents } from "./events";

export const Integrations = { ...serviceContract("integrations"), ...IntegrationsActions, events: IntegrationsEvents };
export * from "./actions";
export * from "./events";
// The integration kinds and their event flags: the route params' slugs and the entities' fields.
export * from "./catalog/kinds";
export * from "./catalog/events";
export * from "./catalog/chat";
export * from "./params/integrations";
export * from "./hooks/actions";
export * from "./hooks/params";
export * from "./hooks/triggers";
export { routes } from "./routes";

