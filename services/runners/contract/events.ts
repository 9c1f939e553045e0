/** Durable events the runners service publishes (see index.ts). */
export const RunnersEvents = {};
