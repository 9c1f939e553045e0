import type { RouteDef } from "@collab/core";

const N = "namespaces";

/** The invitations API, for groups and projects alike; every route needs a caller. */
function invitationRoutes(source: "groups" | "projects"): RouteDef[] {
  const base = `/${source}/:id/invitations`;
  return [
    { method: "POST", path: base, action: `${N}.invitations.create`, params: { source } },
    { method: "GET", path: base, action: `${N}.invitations.list`, params: { source } },
    { method: "PUT", path: `${base}/:email`, action: `${N}.invitations.update`, params: { source } },
    { method: "DELETE", path: `${base}/:email`, action: `${N}.invitations.remove`, params: { source } },
  ];
}

export const invitationsRoutes: RouteDef[] = [...invitationRoutes("groups"), ...invitationRoutes("projects")];

/**
 * Outside /api/v4, as GitLab's InvitesController: the link of the invitation mail shows the
 * invitation to whoever holds the token; accepting it needs a signed-in user (a token here)
 * whose address is the invited one.
 */
export const invitationsWebRoutes: RouteDef[] = [
  { method: "GET", path: "/-/invites/:token", action: `${N}.invitations.show`, auth: "optional" },
  { method: "POST", path: "/-/invites/:token/accept", action: `${N}.invitations.accept`, status: 200 },
];
