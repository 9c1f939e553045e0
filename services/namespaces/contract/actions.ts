/** Actions of the namespaces service other services call (see index.ts). */
export const NamespacesActions = {};
