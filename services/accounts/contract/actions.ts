/** Actions of the accounts service other services call (see index.ts). */
export const AccountsActions = {};
