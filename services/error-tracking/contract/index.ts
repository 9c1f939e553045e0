/**
 * The error-tracking service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { ErrorTrackingActions } from "./actions";
import { ErrorTrackingEvents } from "./events";

export const ErrorTracking = { ...serviceContract("error-tracking"), ...ErrorTrackingActions, events: ErrorTrackingEvents };
export * from "./actions";
export * from "./events";
export * from "./params/settings";
export * from "./params/client-keys";
export * from "./params/collector";
export { routes } from "./routes";
