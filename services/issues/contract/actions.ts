/** Actions of the issues service other services call (see index.ts). */
export const IssuesActions = {};
