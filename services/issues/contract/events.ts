/** Durable events the issues service publishes (see index.ts). */
export const IssuesEvents = {};
