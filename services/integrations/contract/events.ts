/** Durable events the integrations service publishes (see index.ts). */
export const IntegrationsEvents = {};
