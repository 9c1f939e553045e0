/** Durable events the namespaces service publishes (see index.ts). */
export const NamespacesEvents = {};
