import type { RouteDef } from "@collab/core";
import { noteRoutes } from "@collab/notes-contract";
import { IssuesActions as A } from "./actions";

const P = "/projects/:id/issues/:issue_iid";
const I = A.issues;

/** The issues service's REST routes, mounted by the gateway. */
export const routes: RouteDef[] = [
  { method: "GET", path: "/issues", action: I.listAll.name, auth: "optional" },
  { method: "GET", path: "/issues/:id", action: I.getById.name },
  { method: "GET", path: "/groups/:id/issues", action: I.listGroup.name, auth: "optional" },
  { method: "GET", path: "/projects/:id/issues", action: I.listProject.name, auth: "optional" },
  { method: "POST", path: "/projects/:id/issues", action: I.create.name },
  { method: "GET", path: P, action: I.get.name, auth: "optional" },
  { method: "PUT", path: P, action: I.update.name },
  { method: "DELETE", path: P, action: I.delete.name },
  { method: "PUT", path: `${P}/reorder`, action: I.reorder.name },
  { method: "POST", path: `${P}/move`, action: I.move.name },
  { method: "POST", path: `${P}/clone`, action: I.clone.name },
  { method: "POST", path: `${P}/subscribe`, action: I.subscribe.name, params: { subscribed: true } },
  { method: "POST", path: `${P}/unsubscribe`, action: I.subscribe.name, params: { subscribed: false } },

  // Notes, discussions and state events: the shared notes routes (signed-in callers only, as in GitLab).
  ...noteRoutes(A, P, { resolvable: false }),
];
