export { routes } from "@collab/import-export-contract";
