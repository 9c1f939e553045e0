/** Durable events the packages service publishes (see index.ts). */
export const PackagesEvents = {};
