/** Actions of the runners service other services call (see index.ts). */
export const RunnersActions = {};
