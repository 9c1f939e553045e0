import type { RouteDef } from "@collab/core";

const N = "namespaces";

/** Groups, their subgroups and projects (DELETE and restore: deletion.routes.ts). */
export const groupsRoutes: RouteDef[] = [
  { method: "GET", path: "/groups", action: `${N}.groups.list`, auth: "optional" },
  { method: "POST", path: "/groups", action: `${N}.groups.create` },
  { method: "GET", path: "/groups/:id", action: `${N}.groups.get`, auth: "optional" },
  { method: "PUT", path: "/groups/:id", action: `${N}.groups.update` },
  { method: "GET", path: "/groups/:id/subgroups", action: `${N}.groups.subgroups`, auth: "optional" },
  { method: "GET", path: "/groups/:id/descendant_groups", action: `${N}.groups.descendants`, auth: "optional" },
  { method: "GET", path: "/groups/:id/projects", action: `${N}.groups.projects`, auth: "optional" },
];
