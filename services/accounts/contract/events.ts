/** Durable events the accounts service publishes (see index.ts). */
export const AccountsEvents = {};
