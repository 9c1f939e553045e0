import type { RouteDef } from "@collab/core";

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

  // Notes, discussions and state events need a signed-in caller even on public projects, as in GitLab.
  { method: "GET", path: `${P}/notes`, action: `${I}.notes.list` },
  { method: "POST", path: `${P}/notes`, action: `${I}.notes.create` },
  { method: "GET", path: `${P}/notes/:note_id`, action: `${I}.notes.get` },
  { method: "PUT", path: `${P}/notes/:note_id`, action: `${I}.notes.update` },
  { method: "DELETE", path: `${P}/notes/:note_id`, action: `${I}.notes.delete` },

  { method: "GET", path: `${P}/discussions`, action: `${I}.discussions.list` },
  { method: "POST", path: `${P}/discussions`, action: `${I}.discussions.create` },
  { method: "GET", path: `${P}/discussions/:discussion_id`, action: `${I}.discussions.get` },
  { method: "POST", path: `${P}/discussions/:discussion_id/notes`, action: `${I}.discussions.reply` },
  { method: "GET", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: `${I}.discussions.getNote` },
  { method: "PUT", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: `${I}.discussions.updateNote` },
  { method: "DELETE", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: `${I}.discussions.deleteNote` },

  { method: "GET", path: `${P}/resource_state_events`, action: `${I}.stateEvents.list` },
  { method: "GET", path: `${P}/resource_state_events/:resource_state_event_id`, action: `${I}.stateEvents.get` },
];
