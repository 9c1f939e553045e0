// The route table lives in the contract (@collab/admin-contract); re-exported for the gateway.
export { routes } from "@collab/admin-contract";
