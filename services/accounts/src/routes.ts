import type { RouteDef } from "@collab/core";
import { PAT_SCOPES } from "./api/scopes";
import { samlRoutes, scimWebRoutes } from "./scim/scim.routes";

const A = "accounts";
/** A token may always read and revoke itself, whatever its scopes. */
const ANY_SCOPE = PAT_SCOPES;
export const routes: RouteDef[] = [
  { method: "GET", path: "/users", action: `${A}.users.list`, auth: "optional", scopes: ["read_user"] },
  { method: "POST", path: "/users", action: `${A}.users.create` },
  { method: "GET", path: "/users/:id", action: `${A}.users.get`, auth: "optional", scopes: ["read_user"] },
  { method: "PUT", path: "/users/:id", action: `${A}.users.update` },
  { method: "DELETE", path: "/users/:id", action: `${A}.users.delete` },
  { method: "POST", path: "/users/:id/block", action: `${A}.users.setState`, params: { event: "block" } },
  { method: "POST", path: "/users/:id/unblock", action: `${A}.users.setState`, params: { event: "unblock" } },
  { method: "POST", path: "/users/:id/deactivate", action: `${A}.users.setState`, params: { event: "deactivate" } },
  { method: "POST", path: "/users/:id/activate", action: `${A}.users.setState`, params: { event: "activate" } },
  { method: "POST", path: "/users/:id/approve", action: `${A}.users.approve` },
  { method: "POST", path: "/users/:id/reject", action: `${A}.users.reject`, status: 200 },
  { method: "GET", path: "/user", action: `${A}.users.current`, scopes: ["read_user"] },
  { method: "POST", path: "/users/:user_id/personal_access_tokens", action: `${A}.tokens.create` },
  { method: "POST", path: "/user/personal_access_tokens", action: `${A}.tokens.createOwn` },
  { method: "GET", path: "/personal_access_tokens", action: `${A}.tokens.list` },
  { method: "GET", path: "/personal_access_tokens/self", action: `${A}.tokens.get`, scopes: ANY_SCOPE, params: { id: "self" } },
  { method: "GET", path: "/personal_access_tokens/:id", action: `${A}.tokens.get` },
  { method: "DELETE", path: "/personal_access_tokens/self", action: `${A}.tokens.revoke`, scopes: ANY_SCOPE, params: { id: "self" } },
  { method: "DELETE", path: "/personal_access_tokens/:id", action: `${A}.tokens.revoke` },
  { method: "POST", path: "/personal_access_tokens/self/rotate", action: `${A}.tokens.rotateSelf`, scopes: ["self_rotate"], status: 200 },
  ...resourceTokenRoutes("projects"),
  ...resourceTokenRoutes("groups"),
  { method: "GET", path: "/deploy_tokens", action: `${A}.deployTokens.listAll` },
  ...deployTokenRoutes("projects"),
  ...deployTokenRoutes("groups"),
  ...samlRoutes,
  ...notificationSettingRoutes(),
];

/** The caller's notification settings: global, and per group or project (fixed per route, as members). */
function notificationSettingRoutes(): RouteDef[] {
  const act = `${A}.notifications`;
  return [
    { method: "GET", path: "/notification_settings", action: `${act}.global.get` },
    { method: "PUT", path: "/notification_settings", action: `${act}.global.update` },
    ...(["groups", "projects"] as const).flatMap((source): RouteDef[] => [
      { method: "GET", path: `/${source}/:id/notification_settings`, action: `${act}.source.get`, params: { source } },
      { method: "PUT", path: `/${source}/:id/notification_settings`, action: `${act}.source.update`, params: { source } },
    ]),
  ];
}

/** Project and group deploy tokens (no update: GitLab has none). */
function deployTokenRoutes(source: "projects" | "groups"): RouteDef[] {
  const base = `/${source}/:id/deploy_tokens`;
  const act = `${A}.deployTokens`;
  return [
    { method: "GET", path: base, action: `${act}.list`, params: { source } },
    { method: "POST", path: base, action: `${act}.create`, params: { source } },
    { method: "GET", path: `${base}/:token_id`, action: `${act}.get`, params: { source } },
    { method: "DELETE", path: `${base}/:token_id`, action: `${act}.delete`, params: { source } },
  ];
}

/** Project and group access tokens, the same routes for both sources (fixed per route, as members). */
function resourceTokenRoutes(source: "projects" | "groups"): RouteDef[] {
  const base = `/${source}/:id/access_tokens`;
  const act = `${A}.resourceTokens`;
  return [
    { method: "GET", path: base, action: `${act}.list`, params: { source } },
    { method: "POST", path: base, action: `${act}.create`, params: { source } },
    { method: "POST", path: `${base}/self/rotate`, action: `${act}.rotateSelf`, scopes: ["self_rotate"], status: 200, params: { source } },
    { method: "GET", path: `${base}/:token_id`, action: `${act}.get`, params: { source } },
    { method: "DELETE", path: `${base}/:token_id`, action: `${act}.revoke`, params: { source } },
    { method: "POST", path: `${base}/:token_id/rotate`, action: `${act}.rotate`, status: 200, params: { source } },
  ];
}

/**
 * Endpoints outside /api/v4, paths from the server root: GitLab's sign-up form posts to POST /users
 * (Devise's registrations#create), with no authentication; the groups' SCIM API, authenticated by
 * the group's SCIM token.
 */
export const webRoutes: RouteDef[] = [{ method: "POST", path: "/users", action: `${A}.registrations.create`, auth: "optional" }, ...scimWebRoutes];
