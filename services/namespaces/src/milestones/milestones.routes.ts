import type { RouteDef } from "@collab/core";

const N = "namespaces";

/** Milestones exist for projects and groups alike; the route fixes the source. */
function routesFor(source: "projects" | "groups"): RouteDef[] {
  const milestones = `/${source}/:id/milestones`;
  return [
    { method: "GET", path: milestones, action: `${N}.milestones.list`, auth: "optional", params: { source } },
    { method: "POST", path: milestones, action: `${N}.milestones.create`, params: { source } },
    { method: "GET", path: `${milestones}/:milestone_id`, action: `${N}.milestones.get`, auth: "optional", params: { source } },
    { method: "PUT", path: `${milestones}/:milestone_id`, action: `${N}.milestones.update`, params: { source } },
    { method: "DELETE", path: `${milestones}/:milestone_id`, action: `${N}.milestones.delete`, params: { source } },
  ];
}

export const milestonesRoutes: RouteDef[] = [...routesFor("projects"), ...routesFor("groups")];
