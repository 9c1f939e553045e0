// The issues routes live in the issues contract (@collab/issues-contract, routes.ts).
export { routes } from "@collab/issues-contract";
