import type { RouteDef } from "@collab/core";
import { AccountsActions as A } from "./actions";
import { PAT_SCOPES } from "./params/constants";

/**
 * The accounts service's REST routes, mounted by the gateway: each names the action of its
 * contract entry (actions.ts), which declares the route's input and answer.
 */

/** A token may always read and revoke itself, whatever its scopes. */
const ANY_SCOPE = PAT_SCOPES;

/** Project and group access tokens, the same routes for both sources (fixed per route, as members). */
function resourceTokenRoutes(source: "projects" | "groups"): RouteDef[] {
  const base = `/${source}/:id/access_tokens`;
  const act = A.resourceTokens;
  return [
    { method: "GET", path: base, action: act.list.name, params: { source } },
    { method: "POST", path: base, action: act.create.name, params: { source } },
    { method: "POST", path: `${base}/self/rotate`, action: act.rotateSelf.name, scopes: ["self_rotate"], status: 200, params: { source } },
    { method: "GET", path: `${base}/:token_id`, action: act.get.name, params: { source } },
    { method: "DELETE", path: `${base}/:token_id`, action: act.revoke.name, params: { source } },
    { method: "POST", path: `${base}/:token_id/rotate`, action: act.rotate.name, status: 200, params: { source } },
  ];
}

/** Project and group deploy tokens (no update: GitLab has none). */
function deployTokenRoutes(source: "projects" | "groups"): RouteDef[] {
  const base = `/${source}/:id/deploy_tokens`;
  const act = A.deployTokens;
  return [
    { method: "GET", path: base, action: act.list.name, params: { source } },
    { method: "POST", path: base, action: act.create.name, params: { source } },
    { method: "GET", path: `${base}/:token_id`, action: act.get.name, params: { source } },
    { method: "DELETE", path: `${base}/:token_id`, action: act.delete.name, params: { source } },
  ];
}

/**
 * /api/v4: a top-level group's SAML SSO settings and SCIM token (GitLab sets both in its UI,
 * `groups/:group/-/saml` and `-/scim_oauth`; here they are REST endpoints at the nearest API paths)
 * and the SCIM identities API. `/scim/identities` comes before `/scim/:uid`, which it would match.
 */
const samlRoutes: RouteDef[] = [
  { method: "GET", path: "/groups/:id/saml", action: A.saml.settings.get.name },
  { method: "PUT", path: "/groups/:id/saml", action: A.saml.settings.update.name },
  { method: "POST", path: "/groups/:id/scim/token", action: A.scim.token.create.name },
  { method: "GET", path: "/groups/:id/scim/identities", action: A.scim.identities.list.name },
  { method: "GET", path: "/groups/:id/scim/:uid", action: A.scim.identities.get.name },
  { method: "PATCH", path: "/groups/:id/scim/:uid", action: A.scim.identities.update.name },
  { method: "DELETE", path: "/groups/:id/scim/:uid", action: A.scim.identities.delete.name },
];

/** The caller's notification settings: global, and per group or project (fixed per route, as members). */
function notificationSettingRoutes(): RouteDef[] {
  const act = A.notifications;
  return [
    { method: "GET", path: "/notification_settings", action: act.global.get.name },
    { method: "PUT", path: "/notification_settings", action: act.global.update.name },
    ...(["groups", "projects"] as const).flatMap((source): RouteDef[] => [
      { method: "GET", path: `/${source}/:id/notification_settings`, action: act.source.get.name, params: { source } },
      { method: "PUT", path: `/${source}/:id/notification_settings`, action: act.source.update.name, params: { source } },
    ]),
  ];
}

/** Routes under /api/v4. */
export const routes: RouteDef[] = [
  { method: "GET", path: "/users", action: A.users.list.name, auth: "optional", scopes: ["read_user"] },
  { method: "POST", path: "/users", action: A.users.create.name },
  { method: "GET", path: "/users/:id", action: A.users.get.name, auth: "optional", scopes: ["read_user"] },
  { method: "PUT", path: "/users/:id", action: A.users.update.name },
  { method: "DELETE", path: "/users/:id", action: A.users.delete.name },
  { method: "POST", path: "/users/:id/block", action: A.users.setState.name, params: { event: "block" } },
  { method: "POST", path: "/users/:id/unblock", action: A.users.setState.name, params: { event: "unblock" } },
  { method: "POST", path: "/users/:id/deactivate", action: A.users.setState.name, params: { event: "deactivate" } },
  { method: "POST", path: "/users/:id/activate", action: A.users.setState.name, params: { event: "activate" } },
  { method: "POST", path: "/users/:id/approve", action: A.users.approve.name },
  { method: "POST", path: "/users/:id/reject", action: A.users.reject.name, status: 200 },
  { method: "GET", path: "/user", action: A.users.current.name, scopes: ["read_user"] },
  { method: "POST", path: "/users/:user_id/personal_access_tokens", action: A.tokens.create.name },
  { method: "POST", path: "/user/personal_access_tokens", action: A.tokens.createOwn.name },
  { method: "GET", path: "/personal_access_tokens", action: A.tokens.list.name },
  { method: "GET", path: "/personal_access_tokens/self", action: A.tokens.get.name, scopes: ANY_SCOPE, params: { id: "self" } },
  { method: "GET", path: "/personal_access_tokens/:id", action: A.tokens.get.name },
  { method: "DELETE", path: "/personal_access_tokens/self", action: A.tokens.revoke.name, scopes: ANY_SCOPE, params: { id: "self" } },
  { method: "DELETE", path: "/personal_access_tokens/:id", action: A.tokens.revoke.name },
  { method: "POST", path: "/personal_access_tokens/self/rotate", action: A.tokens.rotateSelf.name, scopes: ["self_rotate"], status: 200 },
  ...resourceTokenRoutes("projects"),
  ...resourceTokenRoutes("groups"),
  { method: "GET", path: "/deploy_tokens", action: A.deployTokens.listAll.name },
  ...deployTokenRoutes("projects"),
  ...deployTokenRoutes("groups"),
  ...samlRoutes,
  ...notificationSettingRoutes(),
];

const SCIM = { auth: "scim", contentType: "application/scim+json" } as const;
const SCIM_USERS = "/api/scim/v2/groups/:group_path/Users";

/**
 * Endpoints outside /api/v4, paths from the server root: GitLab's sign-up form posts to POST /users
 * (Devise's registrations#create), with no authentication; the groups' SCIM 2.0 API, authenticated
 * by the group's SCIM token and answering application/scim+json.
 */
export const webRoutes: RouteDef[] = [
  { method: "POST", path: "/users", action: A.registrations.create.name, auth: "optional" },
  { method: "GET", path: SCIM_USERS, action: A.scim.users.list.name, ...SCIM },
  { method: "POST", path: SCIM_USERS, action: A.scim.users.create.name, ...SCIM },
  { method: "GET", path: `${SCIM_USERS}/:id`, action: A.scim.users.get.name, ...SCIM },
  { method: "PATCH", path: `${SCIM_USERS}/:id`, action: A.scim.users.update.name, status: 204, ...SCIM },
  { method: "PUT", path: `${SCIM_USERS}/:id`, action: A.scim.users.replace.name, ...SCIM },
  { method: "DELETE", path: `${SCIM_USERS}/:id`, action: A.scim.users.delete.name, ...SCIM },
];
