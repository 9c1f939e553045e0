import type { RouteDef } from "@collab/core";

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

/** Billable members of top-level groups (EE: Premium and Ultimate; Owners). */
const billableRoutes: RouteDef[] = [
  { method: "GET", path: "/groups/:id/billable_members", action: `${N}.billableMembers.list` },
  { method: "GET", path: "/groups/:id/billable_members/:user_id/memberships", action: `${N}.billableMembers.memberships` },
  { method: "DELETE", path: "/groups/:id/billable_members/:user_id", action: `${N}.billableMembers.remove` },
];

export const membersRoutes: RouteDef[] = [...memberRoutes("groups"), ...memberRoutes("projects"), ...billableRoutes];
