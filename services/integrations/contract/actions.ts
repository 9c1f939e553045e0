/** Actions of the integrations service other services call (see index.ts). */
export const IntegrationsActions = {};
