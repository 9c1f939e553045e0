import type { RouteDef } from "@collab/core";
import { labelsAndMilestonesRoutes } from "./labels-milestones.routes";
import { refsRoutes } from "./refs.routes";

const N = "namespaces";

/**
 * Members routes exist twice, for groups and projects, with the source fixed per route. Every one
 * needs a caller, even on a public group or project: GitLab's members API authenticates first.
 */
function memberRoutes(source: "groups" | "projects"): RouteDef[] {
  const base = `/${source}/:id/members`;
  return [
    { method: "GET", path: base, action: `${N}.members.list`, params: { source } },
    { method: "GET", path: `${base}/all`, action: `${N}.members.list`, params: { source, inherited: true } },
    { method: "GET", path: `${base}/all/:user_id`, action: `${N}.members.get`, params: { source, inherited: true } },
    { method: "GET", path: `${base}/:user_id`, action: `${N}.members.get`, params: { source } },
    { method: "POST", path: base, action: `${N}.members.add`, params: { source } },
    { method: "PUT", path: `${base}/:user_id`, action: `${N}.members.update`, params: { source } },
    { method: "DELETE", path: `${base}/:user_id`, action: `${N}.members.remove`, params: { source } },
  ];
}

export const routes: RouteDef[] = [
  { method: "GET", path: "/groups", action: `${N}.groups.list`, auth: "optional" },
  { method: "POST", path: "/groups", action: `${N}.groups.create` },
  { method: "GET", path: "/groups/:id", action: `${N}.groups.get`, auth: "optional" },
  { method: "PUT", path: "/groups/:id", action: `${N}.groups.update` },
  { method: "DELETE", path: "/groups/:id", action: `${N}.groups.delete` },
  { method: "POST", path: "/groups/:id/restore", action: `${N}.groups.restore` },
  { method: "GET", path: "/groups/:id/subgroups", action: `${N}.groups.subgroups`, auth: "optional" },
  { method: "GET", path: "/groups/:id/descendant_groups", action: `${N}.groups.descendants`, auth: "optional" },
  { method: "GET", path: "/groups/:id/projects", action: `${N}.groups.projects`, auth: "optional" },
  { method: "GET", path: "/projects", action: `${N}.projects.list`, auth: "optional" },
  { method: "POST", path: "/projects", action: `${N}.projects.create` },
  { method: "GET", path: "/projects/:id", action: `${N}.projects.get`, auth: "optional" },
  { method: "PUT", path: "/projects/:id", action: `${N}.projects.update` },
  { method: "DELETE", path: "/projects/:id", action: `${N}.projects.delete` },
  { method: "POST", path: "/projects/:id/restore", action: `${N}.projects.restore` },
  ...memberRoutes("groups"),
  ...memberRoutes("projects"),
  ...labelsAndMilestonesRoutes,
  ...refsRoutes,
];
