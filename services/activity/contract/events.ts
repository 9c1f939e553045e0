/** Durable events the activity service publishes (see index.ts). */
export const ActivityEvents = {};
