/** Durable events the admin service publishes (see index.ts). */
export const AdminEvents = {};
