/** Durable events the merge-requests service publishes (see index.ts). */
export const MergeRequestsEvents = {};
