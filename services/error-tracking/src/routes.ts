export { routes } from "@collab/error-tracking-contract";
