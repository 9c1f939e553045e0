/** Actions of the activity service other services call (see index.ts). */
export const ActivityActions = {};
