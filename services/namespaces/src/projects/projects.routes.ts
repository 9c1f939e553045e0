import type { RouteDef } from "@collab/core";

const N = "namespaces";

/** Projects (DELETE and restore: deletion.routes.ts). */
export const projectsRoutes: RouteDef[] = [
  { method: "GET", path: "/projects", action: `${N}.projects.list`, auth: "optional" },
  { method: "POST", path: "/projects", action: `${N}.projects.create` },
  { method: "GET", path: "/projects/:id", action: `${N}.projects.get`, auth: "optional" },
  { method: "PUT", path: "/projects/:id", action: `${N}.projects.update` },
];
