import type { RouteDef } from "@collab/core";
import { awardEmojiRoutes, noteRoutes, participantsRoute, timeTrackingRoutes } from "@collab/notes-contract";
import { IssuesActions as A } from "./actions";

const P = "/projects/:id/issues/:issue_iid";
const I = A.issues;
const E = A.epics;
const EL = A.epicLinks;
const EI = A.epicIssues;
const L = A.issueLinks;
const EPIC = "/groups/:id/epics/:epic_iid";

/** The issues service's REST routes, mounted by the gateway. */
export const routes: RouteDef[] = [
  { method: "GET", path: "/issues", action: I.listAll.name, auth: "optional" },
  { method: "GET", path: "/issues/:id", action: I.getById.name },
  { method: "GET", path: "/groups/:id/issues", action: I.listGroup.name, auth: "optional" },
  { method: "GET", path: "/projects/:id/issues", action: I.listProject.name, auth: "optional" },
  { method: "POST", path: "/projects/:id/issues", action: I.create.name },
  { method: "GET", path: "/issues_statistics", action: I.statisticsAll.name, auth: "optional" },
  { method: "GET", path: "/groups/:id/issues_statistics", action: I.statisticsGroup.name, auth: "optional" },
  { method: "GET", path: "/projects/:id/issues_statistics", action: I.statisticsProject.name, auth: "optional" },
  { method: "GET", path: P, action: I.get.name, auth: "optional" },
  { method: "PUT", path: P, action: I.update.name },
  { method: "DELETE", path: P, action: I.delete.name },
  { method: "PUT", path: `${P}/reorder`, action: I.reorder.name },
  { method: "POST", path: `${P}/move`, action: I.move.name },
  { method: "POST", path: `${P}/clone`, action: I.clone.name },
  participantsRoute(A.participants, P),
  { method: "POST", path: `${P}/subscribe`, action: I.subscribe.name, params: { subscribed: true } },
  { method: "POST", path: `${P}/unsubscribe`, action: I.subscribe.name, params: { subscribed: false } },
  // Issue links: signed-in callers only (GitLab's authenticate!).
  { method: "GET", path: `${P}/links`, action: L.list.name },
  { method: "POST", path: `${P}/links`, action: L.create.name },
  { method: "GET", path: `${P}/links/:issue_link_id`, action: L.get.name },
  { method: "DELETE", path: `${P}/links/:issue_link_id`, action: L.remove.name, status: 200 },

  // Epics (Premium and Ultimate): GitLab's API needs a signed-in caller but for reads.
  { method: "GET", path: "/groups/:id/epics", action: E.list.name, auth: "optional" },
  { method: "POST", path: "/groups/:id/epics", action: E.create.name },
  { method: "GET", path: EPIC, action: E.get.name, auth: "optional" },
  { method: "PUT", path: EPIC, action: E.update.name },
  { method: "DELETE", path: EPIC, action: E.delete.name },
  { method: "GET", path: `${EPIC}/epics`, action: EL.list.name },
  { method: "POST", path: `${EPIC}/epics`, action: EL.create.name },
  { method: "POST", path: `${EPIC}/epics/:child_epic_id`, action: EL.assign.name },
  { method: "DELETE", path: `${EPIC}/epics/:child_epic_id`, action: EL.remove.name, status: 200 },
  // Signed-in callers only (GitLab's authenticate!), checked after the tier so that the free tier answers 404 to all.
  { method: "GET", path: `${EPIC}/issues`, action: EI.list.name, auth: "optional" },
  { method: "POST", path: `${EPIC}/issues/:issue_id`, action: EI.assign.name, auth: "optional" },
  { method: "PUT", path: `${EPIC}/issues/:epic_issue_id`, action: EI.reorder.name, auth: "optional" },
  { method: "DELETE", path: `${EPIC}/issues/:epic_issue_id`, action: EI.remove.name, auth: "optional", status: 200 },
  // Notes, discussions and state events of an epic: named by its id (GitLab's notes helpers), not its iid.
  ...noteRoutes(A.epicNotes, "/groups/:id/epics/:epic_id", { resolvable: false }),

  // Notes, discussions and state events: the shared notes routes (signed-in callers only, as in GitLab).
  ...noteRoutes(A, P, { resolvable: false }),
  // Emoji reactions on the issue and its notes, and time tracking: shared with merge requests (and snippets' reactions).
  ...awardEmojiRoutes(A.awardEmoji, P),
  ...timeTrackingRoutes(A.timeTracking, P),
];
