import type { RouteDef } from "@collab/core";

const N = "namespaces";

/** Deleting groups and projects, and restoring those marked for adjourned deletion. */
export const deletionRoutes: RouteDef[] = [
  { method: "DELETE", path: "/groups/:id", action: `${N}.groups.delete` },
  { method: "POST", path: "/groups/:id/restore", action: `${N}.groups.restore` },
  { method: "DELETE", path: "/projects/:id", action: `${N}.projects.delete` },
  { method: "POST", path: "/projects/:id/restore", action: `${N}.projects.restore` },
];
