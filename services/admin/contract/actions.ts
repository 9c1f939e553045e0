/** Actions of the admin service other services call (see index.ts). */
export const AdminActions = {};
