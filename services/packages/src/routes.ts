export { routes } from "@collab/packages-contract";
