/** Durable events the error-tracking service publishes (see index.ts). */
export const ErrorTrackingEvents = {};
