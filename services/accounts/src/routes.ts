/** The route table lives in the contract (@collab/accounts-contract): re-exported for the gateway. */
export { routes, webRoutes } from "@collab/accounts-contract";
