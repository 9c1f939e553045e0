/** Actions of the packages service other services call (see index.ts). */
export const PackagesActions = {};
