/** The service's routes live in its contract; re-exported for the gateway's current import. */
export { routes } from "@collab/runners-contract";
