import type { RouteDef } from "@collab/core";

const A = "admin";

/** Storage-move routes of one container type, as GitLab mounts them for projects, snippets and groups. */
const moves = (type: "project" | "snippet" | "group"): RouteDef[] => {
  const act = `${A}.storageMoves.${type}`;
  return [
    { method: "GET", path: `/${type}_repository_storage_moves`, action: `${act}.list` },
    { method: "POST", path: `/${type}_repository_storage_moves`, action: `${act}.bulk` },
    { method: "GET", path: `/${type}_repository_storage_moves/:repository_storage_move_id`, action: `${act}.get` },
    { method: "GET", path: `/${type}s/:id/repository_storage_moves`, action: `${act}.listFor` },
    { method: "POST", path: `/${type}s/:id/repository_storage_moves`, action: `${act}.create` },
    { method: "GET", path: `/${type}s/:id/repository_storage_moves/:repository_storage_move_id`, action: `${act}.getFor` },
  ];
};

export const routes: RouteDef[] = [
  { method: "GET", path: "/application/settings", action: `${A}.settings.get` },
  { method: "PUT", path: "/application/settings", action: `${A}.settings.update` },

  { method: "GET", path: "/broadcast_messages", action: `${A}.broadcastMessages.list`, auth: "optional" },
  { method: "GET", path: "/broadcast_messages/:id", action: `${A}.broadcastMessages.get`, auth: "optional" },
  { method: "POST", path: "/broadcast_messages", action: `${A}.broadcastMessages.create` },
  { method: "PUT", path: "/broadcast_messages/:id", action: `${A}.broadcastMessages.update` },
  { method: "DELETE", path: "/broadcast_messages/:id", action: `${A}.broadcastMessages.delete` },

  { method: "GET", path: "/service_accounts", action: `${A}.serviceAccounts.list` },
  { method: "POST", path: "/service_accounts", action: `${A}.serviceAccounts.create` },
  { method: "PATCH", path: "/service_accounts/:user_id", action: `${A}.serviceAccounts.update` },
  { method: "GET", path: "/groups/:id/service_accounts", action: `${A}.groupServiceAccounts.list` },
  { method: "POST", path: "/groups/:id/service_accounts", action: `${A}.groupServiceAccounts.create` },
  { method: "DELETE", path: "/groups/:id/service_accounts/:user_id", action: `${A}.groupServiceAccounts.delete` },
  { method: "PATCH", path: "/groups/:id/service_accounts/:user_id", action: `${A}.groupServiceAccounts.update` },
  { method: "GET", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens", action: `${A}.groupServiceAccounts.listTokens` },
  { method: "POST", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens", action: `${A}.groupServiceAccounts.createToken` },
  { method: "DELETE", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id", action: `${A}.groupServiceAccounts.revokeToken` },
  { method: "POST", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id/rotate", action: `${A}.groupServiceAccounts.rotateToken`, status: 200 },

  { method: "GET", path: "/experiments", action: `${A}.experiments.list` },

  { method: "GET", path: "/admin/dead_letters", action: `${A}.deadLetters.list` },
  { method: "POST", path: "/admin/dead_letters/replay", action: `${A}.deadLetters.replayAll`, status: 200 },
  { method: "GET", path: "/admin/dead_letters/:id", action: `${A}.deadLetters.get` },
  { method: "POST", path: "/admin/dead_letters/:id/replay", action: `${A}.deadLetters.replay`, status: 200 },
  { method: "DELETE", path: "/admin/dead_letters/:id", action: `${A}.deadLetters.delete` },

  ...moves("project"),
  ...moves("snippet"),
  ...moves("group"),
];
