/**
 * The namespaces service's HTTP routes, as the gateway mounts them, each naming its action by the
 * contract entry. One file: a contract's files may not import from a parent folder (eslint).
 */
import type { RouteDef } from "@collab/core";
import { NamespacesActions as A } from "./actions";

/** Groups, their subgroups and projects (DELETE and restore: deletionRoutes). */
export const groupsRoutes: RouteDef[] = [
  { method: "GET", path: "/groups", action: A.groups.list.name, auth: "optional" },
  { method: "POST", path: "/groups", action: A.groups.create.name },
  { method: "GET", path: "/groups/:id", action: A.groups.get.name, auth: "optional" },
  { method: "PUT", path: "/groups/:id", action: A.groups.update.name },
  { method: "GET", path: "/groups/:id/subgroups", action: A.groups.subgroups.name, auth: "optional" },
  { method: "GET", path: "/groups/:id/descendant_groups", action: A.groups.descendants.name, auth: "optional" },
  { method: "GET", path: "/groups/:id/projects", action: A.groups.projects.name, auth: "optional" },
];

/** Projects (DELETE and restore: deletionRoutes). */
export const projectsRoutes: RouteDef[] = [
  { method: "GET", path: "/projects", action: A.projects.list.name, auth: "optional" },
  { method: "POST", path: "/projects", action: A.projects.create.name },
  { method: "GET", path: "/projects/:id", action: A.projects.get.name, auth: "optional" },
  { method: "PUT", path: "/projects/:id", action: A.projects.update.name },
];

/** Deleting groups and projects, and restoring those marked for adjourned deletion. */
export const deletionRoutes: RouteDef[] = [
  { method: "DELETE", path: "/groups/:id", action: A.groups.delete.name },
  { method: "POST", path: "/groups/:id/restore", action: A.groups.restore.name },
  { method: "DELETE", path: "/projects/:id", action: A.projects.delete.name },
  { method: "POST", path: "/projects/:id/restore", action: A.projects.restore.name },
];

/**
 * Members routes exist twice, for groups and projects, with the source fixed per route. Every one
 * needs a caller, even on a public group or project: GitLab's members API authenticates first.
 */
function memberRoutes(source: "groups" | "projects"): RouteDef[] {
  const base = `/${source}/:id/members`;
  return [
    { method: "GET", path: base, action: A.members.list.name, params: { source } },
    { method: "GET", path: `${base}/all`, action: A.members.list.name, params: { source, inherited: true } },
    { method: "GET", path: `${base}/all/:user_id`, action: A.members.get.name, params: { source, inherited: true } },
    { method: "GET", path: `${base}/:user_id`, action: A.members.get.name, params: { source } },
    { method: "POST", path: base, action: A.members.add.name, params: { source } },
    { method: "PUT", path: `${base}/:user_id`, action: A.members.update.name, params: { source } },
    { method: "DELETE", path: `${base}/:user_id`, action: A.members.remove.name, params: { source } },
  ];
}

/** Billable members of top-level groups (EE: Premium and Ultimate; Owners). */
const billableRoutes: RouteDef[] = [
  { method: "GET", path: "/groups/:id/billable_members", action: A.billableMembers.list.name },
  { method: "GET", path: "/groups/:id/billable_members/:user_id/memberships", action: A.billableMembers.memberships.name },
  { method: "DELETE", path: "/groups/:id/billable_members/:user_id", action: A.billableMembers.remove.name },
];

export const membersRoutes: RouteDef[] = [...memberRoutes("groups"), ...memberRoutes("projects"), ...billableRoutes];

/** The invitations API, for groups and projects alike; every route needs a caller. */
function invitationRoutes(source: "groups" | "projects"): RouteDef[] {
  const base = `/${source}/:id/invitations`;
  return [
    { method: "POST", path: base, action: A.invitations.create.name, params: { source } },
    { method: "GET", path: base, action: A.invitations.list.name, params: { source } },
    { method: "PUT", path: `${base}/:email`, action: A.invitations.update.name, params: { source } },
    { method: "DELETE", path: `${base}/:email`, action: A.invitations.remove.name, params: { source } },
  ];
}

export const invitationsRoutes: RouteDef[] = [...invitationRoutes("groups"), ...invitationRoutes("projects")];

/**
 * Outside /api/v4, as GitLab's InvitesController: the link of the invitation mail shows the
 * invitation to whoever holds the token; accepting it needs a signed-in user (a token here)
 * whose address is the invited one.
 */
export const invitationsWebRoutes: RouteDef[] = [
  { method: "GET", path: "/-/invites/:token", action: A.invitations.show.name, auth: "optional" },
  { method: "POST", path: "/-/invites/:token/accept", action: A.invitations.accept.name, status: 200 },
];

/**
 * Labels exist for projects and groups alike; the route fixes the source, and for updates and
 * deletes whether the label is named in the path or (older form) in the params.
 */
function labelRoutes(source: "projects" | "groups"): RouteDef[] {
  const labels = `/${source}/:id/labels`;
  return [
    { method: "GET", path: labels, action: A.labels.list.name, auth: "optional", params: { source } },
    { method: "POST", path: labels, action: A.labels.create.name, params: { source } },
    { method: "PUT", path: labels, action: A.labels.update.name, params: { source, form: "body" } },
    { method: "DELETE", path: labels, action: A.labels.delete.name, params: { source, form: "body" } },
    { method: "GET", path: `${labels}/:label_id`, action: A.labels.get.name, auth: "optional", params: { source } },
    { method: "PUT", path: `${labels}/:label_id`, action: A.labels.update.name, params: { source, form: "path" } },
    { method: "DELETE", path: `${labels}/:label_id`, action: A.labels.delete.name, params: { source, form: "path" } },
  ];
}

export const labelsRoutes: RouteDef[] = [...labelRoutes("projects"), ...labelRoutes("groups")];

/** Milestones exist for projects and groups alike; the route fixes the source. */
function milestoneRoutes(source: "projects" | "groups"): RouteDef[] {
  const milestones = `/${source}/:id/milestones`;
  return [
    { method: "GET", path: milestones, action: A.milestones.list.name, auth: "optional", params: { source } },
    { method: "POST", path: milestones, action: A.milestones.create.name, params: { source } },
    { method: "GET", path: `${milestones}/:milestone_id`, action: A.milestones.get.name, auth: "optional", params: { source } },
    { method: "PUT", path: `${milestones}/:milestone_id`, action: A.milestones.update.name, params: { source } },
    { method: "DELETE", path: `${milestones}/:milestone_id`, action: A.milestones.delete.name, params: { source } },
  ];
}

export const milestonesRoutes: RouteDef[] = [...milestoneRoutes("projects"), ...milestoneRoutes("groups")];

const P = "/projects/:id/protected_branches";

/** GitLab's protected branches API (writes and reads for Maintainers and up). */
export const protectedBranchesRoutes: RouteDef[] = [
  { method: "GET", path: P, action: A.protectedBranches.list.name },
  { method: "POST", path: P, action: A.protectedBranches.create.name },
  { method: "GET", path: `${P}/:name`, action: A.protectedBranches.get.name },
  { method: "PATCH", path: `${P}/:name`, action: A.protectedBranches.update.name },
  { method: "DELETE", path: `${P}/:name`, action: A.protectedBranches.delete.name },
];

/** Every HTTP route of the namespaces service, as the gateway mounts them: each subdomain's list. */
export const routes: RouteDef[] = [
  ...groupsRoutes,
  ...projectsRoutes,
  ...deletionRoutes,
  ...membersRoutes,
  ...invitationsRoutes,
  ...labelsRoutes,
  ...milestonesRoutes,
  ...protectedBranchesRoutes,
];

/** Endpoints outside /api/v4 (paths from the server root): the invitation links of mails. */
export const webRoutes: RouteDef[] = [...invitationsWebRoutes];
