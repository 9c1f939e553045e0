/** Actions of the merge-requests service other services call (see index.ts). */
export const MergeRequestsActions = {};
