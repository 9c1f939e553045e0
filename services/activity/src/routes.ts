export { routes } from "@collab/activity-contract";
