import type { RouteDef } from "@collab/core";

const A = "accounts";
export const routes: RouteDef[] = [
  { method: "GET", path: "/users", action: `${A}.users.list`, auth: "optional", scopes: ["read_user"] },
  { method: "POST", path: "/users", action: `${A}.users.create` },
  { method: "GET", path: "/users/:id", action: `${A}.users.get`, auth: "optional", scopes: ["read_user"] },
  { method: "PUT", path: "/users/:id", action: `${A}.users.update` },
  { method: "DELETE", path: "/users/:id", action: `${A}.users.delete` },
  { method: "POST", path: "/users/:id/block", action: `${A}.users.setState`, params: { state: "blocked" } },
  { method: "POST", path: "/users/:id/unblock", action: `${A}.users.setState`, params: { state: "active" } },
  { method: "POST", path: "/users/:id/deactivate", action: `${A}.users.setState`, params: { state: "deactivated" } },
  { method: "POST", path: "/users/:id/activate", action: `${A}.users.setState`, params: { state: "active" } },
  { method: "GET", path: "/user", action: `${A}.users.current`, scopes: ["read_user"] },
  { method: "POST", path: "/users/:user_id/personal_access_tokens", action: `${A}.tokens.create` },
  { method: "POST", path: "/user/personal_access_tokens", action: `${A}.tokens.createOwn` },
  { method: "GET", path: "/personal_access_tokens", action: `${A}.tokens.list` },
  { method: "GET", path: "/personal_access_tokens/self", action: `${A}.tokens.get`, params: { id: "self" } },
  { method: "GET", path: "/personal_access_tokens/:id", action: `${A}.tokens.get` },
  { method: "DELETE", path: "/personal_access_tokens/self", action: `${A}.tokens.revoke`, params: { id: "self" } },
  { method: "DELETE", path: "/personal_access_tokens/:id", action: `${A}.tokens.revoke` },
];
