/** The namespaces service's route tables live in its contract; re-exported for the gateway's `@collab/namespaces/routes`. */
export { routes, webRoutes } from "@collab/namespaces-contract";
