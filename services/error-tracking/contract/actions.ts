/** Actions of the error-tracking service other services call (see index.ts). */
export const ErrorTrackingActions = {};
