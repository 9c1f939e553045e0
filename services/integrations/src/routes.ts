export { routes } from "@collab/integrations-contract";
