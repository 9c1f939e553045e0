import type { RouteDef } from "@collab/core";
import { AdminActions as A } from "./actions";

/** Storage-move routes of one container type, as GitLab mounts them for projects, snippets and groups. */
const moves = (type: "project" | "snippet" | "group"): RouteDef[] => {
  const act = A.storageMoves[type];
  return [
    { method: "GET", path: `/${type}_repository_storage_moves`, action: act.list.name },
    { method: "POST", path: `/${type}_repository_storage_moves`, action: act.bulk.name },
    { method: "GET", path: `/${type}_repository_storage_moves/:repository_storage_move_id`, action: act.get.name },
    { method: "GET", path: `/${type}s/:id/repository_storage_moves`, action: act.listFor.name },
    { method: "POST", path: `/${type}s/:id/repository_storage_moves`, action: act.create.name },
    { method: "GET", path: `/${type}s/:id/repository_storage_moves/:repository_storage_move_id`, action: act.getFor.name },
  ];
};

/** The admin service's REST routes (mounted by the gateway under /api/v4). */
export const routes: RouteDef[] = [
  { method: "GET", path: "/application/settings", action: A.settings.get.name },
  { method: "PUT", path: "/application/settings", action: A.settings.update.name },

  { method: "GET", path: "/broadcast_messages", action: A.broadcastMessages.list.name, auth: "optional" },
  { method: "GET", path: "/broadcast_messages/:id", action: A.broadcastMessages.get.name, auth: "optional" },
  { method: "POST", path: "/broadcast_messages", action: A.broadcastMessages.create.name },
  { method: "PUT", path: "/broadcast_messages/:id", action: A.broadcastMessages.update.name },
  { method: "DELETE", path: "/broadcast_messages/:id", action: A.broadcastMessages.delete.name },

  { method: "GET", path: "/service_accounts", action: A.serviceAccounts.list.name },
  { method: "POST", path: "/service_accounts", action: A.serviceAccounts.create.name },
  { method: "PATCH", path: "/service_accounts/:user_id", action: A.serviceAccounts.update.name },
  { method: "GET", path: "/groups/:id/service_accounts", action: A.groupServiceAccounts.list.name },
  { method: "POST", path: "/groups/:id/service_accounts", action: A.groupServiceAccounts.create.name },
  { method: "DELETE", path: "/groups/:id/service_accounts/:user_id", action: A.groupServiceAccounts.delete.name },
  { method: "PATCH", path: "/groups/:id/service_accounts/:user_id", action: A.groupServiceAccounts.update.name },
  { method: "GET", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens", action: A.groupServiceAccounts.listTokens.name },
  { method: "POST", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens", action: A.groupServiceAccounts.createToken.name },
  { method: "DELETE", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id", action: A.groupServiceAccounts.revokeToken.name },
  { method: "POST", path: "/groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id/rotate", action: A.groupServiceAccounts.rotateToken.name, status: 200 },

  { method: "GET", path: "/experiments", action: A.experiments.list.name },

  { method: "GET", path: "/admin/dead_letters", action: A.deadLetters.list.name },
  { method: "POST", path: "/admin/dead_letters/replay", action: A.deadLetters.replayAll.name, status: 200 },
  { method: "GET", path: "/admin/dead_letters/:id", action: A.deadLetters.get.name },
  { method: "POST", path: "/admin/dead_letters/:id/replay", action: A.deadLetters.replay.name, status: 200 },
  { method: "DELETE", path: "/admin/dead_letters/:id", action: A.deadLetters.delete.name },

  ...moves("project"),
  ...moves("snippet"),
  ...moves("group"),
];
