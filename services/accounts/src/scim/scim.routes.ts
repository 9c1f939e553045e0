import type { RouteDef } from "@collab/core";

const A = "accounts";

/**
 * /api/v4: a top-level group's SAML SSO settings and SCIM token (GitLab sets both in its UI,
 * `groups/:group/-/saml` and `-/scim_oauth`; here they are REST endpoints at the nearest API paths)
 * and the SCIM identities API. `/scim/identities` comes before `/scim/:uid`, which it would match.
 */
export const samlRoutes: RouteDef[] = [
  { method: "GET", path: "/groups/:id/saml", action: `${A}.saml.settings.get` },
  { method: "PUT", path: "/groups/:id/saml", action: `${A}.saml.settings.update` },
  { method: "POST", path: "/groups/:id/scim/token", action: `${A}.scim.token.create` },
  { method: "GET", path: "/groups/:id/scim/identities", action: `${A}.scim.identities.list` },
  { method: "GET", path: "/groups/:id/scim/:uid", action: `${A}.scim.identities.get` },
  { method: "PATCH", path: "/groups/:id/scim/:uid", action: `${A}.scim.identities.update` },
  { method: "DELETE", path: "/groups/:id/scim/:uid", action: `${A}.scim.identities.delete` },
];

const SCIM = { auth: "scim", contentType: "application/scim+json" } as const;
const USERS = "/api/scim/v2/groups/:group_path/Users";

/** The SCIM 2.0 API outside /api/v4, authenticated by the group's SCIM token, answering application/scim+json. */
export const scimWebRoutes: RouteDef[] = [
  { method: "GET", path: USERS, action: `${A}.scim.users.list`, ...SCIM },
  { method: "POST", path: USERS, action: `${A}.scim.users.create`, ...SCIM },
  { method: "GET", path: `${USERS}/:id`, action: `${A}.scim.users.get`, ...SCIM },
  { method: "PATCH", path: `${USERS}/:id`, action: `${A}.scim.users.update`, status: 204, ...SCIM },
  { method: "PUT", path: `${USERS}/:id`, action: `${A}.scim.users.replace`, ...SCIM },
  { method: "DELETE", path: `${USERS}/:id`, action: `${A}.scim.users.delete`, ...SCIM },
];
