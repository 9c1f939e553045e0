import type { RouteDef } from "@collab/core";
import { noteRoutes } from "@collab/notes/routes";

const I = "issues";
const P = "/projects/:id/issues/:issue_iid";

export const routes: RouteDef[] = [
  { method: "GET", path: "/issues", action: `${I}.issues.listAll`, auth: "optional" },
  { method: "GET", path: "/issues/:id", action: `${I}.issues.getById` },
  { method: "GET", path: "/groups/:id/issues", action: `${I}.issues.listGroup`, auth: "optional" },
  { method: "GET", path: "/projects/:id/issues", action: `${I}.issues.listProject`, auth: "optional" },
  { method: "POST", path: "/projects/:id/issues", action: `${I}.issues.create` },
  { method: "GET", path: P, action: `${I}.issues.get`, auth: "optional" },
  { method: "PUT", path: P, action: `${I}.issues.update` },
  { method: "DELETE", path: P, action: `${I}.issues.delete` },
  { method: "PUT", path: `${P}/reorder`, action: `${I}.issues.reorder` },
  { method: "POST", path: `${P}/move`, action: `${I}.issues.move` },
  { method: "POST", path: `${P}/clone`, action: `${I}.issues.clone` },
  { method: "POST", path: `${P}/subscribe`, action: `${I}.issues.subscribe`, params: { subscribed: true } },
  { method: "POST", path: `${P}/unsubscribe`, action: `${I}.issues.subscribe`, params: { subscribed: false } },

  // Notes, discussions and state events: the shared notes routes (signed-in callers only, as in GitLab).
  ...noteRoutes(I, P, { resolvable: false }),
];
