/**
 * What the work-item services (issues, merge requests) share: their bus clients of accounts and
 * namespaces (through those services' contracts, one batched call per request or page) and the
 * finder and domain helpers both use. One implementation each.
 */
export {};
