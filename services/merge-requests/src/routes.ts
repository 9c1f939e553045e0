export { routes } from "@collab/merge-requests-contract";
