import { discussionContract, discussionRoutes, isNoteCreatingAction, noteContract, noteRoutes, statelessNoteContract, unresolvableNoteContract, withResourceEvents } from "@collab/notes-contract";

const MR = "/projects/:id/merge_requests/:merge_request_iid";

// A service of no contract ("widgets"): the notes entries are built for any service that mounts them.
describe("noteRoutes", () => {
  test("mounts the service's note entries under its noteable path", () => {
    const routes = noteRoutes(noteContract("widgets", "merge_request_iid"), MR, { resolvable: true });
    expect(routes.every((r) => r.path.startsWith(`${MR}/`) && r.action.startsWith("widgets."))).toBe(true);
    expect(routes).toContainEqual({ method: "PUT", path: `${MR}/discussions/:discussion_id`, action: "widgets.discussions.resolve" });
    // 15 notes, discussions and state events routes, and list and get of the four resource event families.
    expect(routes).toHaveLength(23);
  });

  test("no thread resolution route for a kind without resolvable threads", () => {
    const routes = noteRoutes(unresolvableNoteContract("issues"), "/projects/:id/issues/:issue_iid", { resolvable: false });
    expect(routes.some((r) => r.action.endsWith(".discussions.resolve"))).toBe(false);
    expect(routes).toHaveLength(22);
    expect(() => noteRoutes(unresolvableNoteContract("issues"), "/x", { resolvable: true })).toThrow(/discussions.resolve/);
  });

  test("no state event routes for a kind without states (snippets, by id)", () => {
    const P = "/projects/:id/snippets/:snippet_id";
    const routes = noteRoutes(statelessNoteContract("widgets", "snippet_id"), P, { resolvable: false });
    expect(routes.some((r) => r.path.includes("resource_state_events"))).toBe(false);
    expect(routes).toHaveLength(12);
    expect(statelessNoteContract("widgets", "snippet_id").notes.get.input().parse({ id: "3", snippet_id: "9", note_id: "1" })).toEqual({ id: "3", snippet_id: 9, note_id: 1 });
  });

  test("the note-creating actions of any service count for the notes rate limit", () => {
    const creating = noteRoutes(noteContract("widgets", "merge_request_iid"), "/x", { resolvable: true }).filter((r) => isNoteCreatingAction(r.action));
    expect(creating.map((r) => r.action).sort()).toEqual(["widgets.discussions.create", "widgets.discussions.reply", "widgets.notes.create"]);
    expect(isNoteCreatingAction(noteContract("issues").notes.update.name)).toBe(false);
  });

  test("a group's noteable (an epic, by id): its routes under the group, the creating ones rate limited", () => {
    const E = "/groups/:id/epics/:epic_id";
    const entries = unresolvableNoteContract("widgets.epics", "epic_id");
    const routes = noteRoutes(entries, E, { resolvable: false });
    expect(routes).toHaveLength(22);
    expect(routes.every((r) => r.path.startsWith(`${E}/`) && r.action.startsWith("widgets.epics."))).toBe(true);
    expect(routes.filter((r) => isNoteCreatingAction(r.action)).map((r) => r.action).sort()).toEqual(["widgets.epics.discussions.create", "widgets.epics.discussions.reply", "widgets.epics.notes.create"]);
    expect(entries.stateEvents.get.input().parse({ id: "team", epic_id: "12", resource_state_event_id: "3" })).toEqual({ id: "team", epic_id: 12, resource_state_event_id: 3 });
  });

  test("a noteable with discussions only (a commit): its seven routes (no resolution), the creating ones rate limited", () => {
    const C = "/projects/:id/repository/commits/:commit_id";
    const routes = discussionRoutes(discussionContract("widgets.commits", "commit_id"), C, { resolvable: false });
    expect(routes).toHaveLength(7);
    expect(routes.every((r) => r.path.startsWith(`${C}/discussions`) && r.action.startsWith("widgets.commits.discussions."))).toBe(true);
    expect(routes.filter((r) => isNoteCreatingAction(r.action)).map((r) => r.action).sort()).toEqual(["widgets.commits.discussions.create", "widgets.commits.discussions.reply"]);
  });

  test("the resource event families a kind records: list and get of each, under GitLab's paths", () => {
    const P = "/projects/:id/issues/:issue_iid";
    const routes = noteRoutes(unresolvableNoteContract("widgets", "issue_iid"), P, { resolvable: false }).filter((r) => /resource_(label|milestone|weight|iteration)_events/.test(r.path));
    expect(routes.map((r) => `${r.method} ${r.path.slice(P.length)} ${r.action}`)).toEqual([
      "GET /resource_label_events widgets.labelEvents.list",
      "GET /resource_label_events/:resource_label_event_id widgets.labelEvents.get",
      "GET /resource_milestone_events widgets.milestoneEvents.list",
      "GET /resource_milestone_events/:resource_milestone_event_id widgets.milestoneEvents.get",
      "GET /resource_weight_events widgets.weightEvents.list",
      "GET /resource_weight_events/:resource_weight_event_id widgets.weightEvents.get",
      "GET /resource_iteration_events widgets.iterationEvents.list",
      "GET /resource_iteration_events/:resource_iteration_event_id widgets.iterationEvents.get",
    ]);
    // An epic records label events only; snippets none.
    const epic = withResourceEvents(unresolvableNoteContract("widgets.epics", "epic_id"), ["labelEvents"]);
    expect(Object.keys(epic).sort()).toEqual(["discussions", "labelEvents", "notes", "stateEvents"]);
    expect(noteRoutes(epic, "/e", { resolvable: false }).filter((r) => r.path.includes("_events/")).map((r) => r.path)).toEqual([
      "/e/resource_state_events/:resource_state_event_id",
      "/e/resource_label_events/:resource_label_event_id",
    ]);
    expect(noteRoutes(statelessNoteContract("widgets", "snippet_id"), "/s", { resolvable: false }).some((r) => r.path.includes("_events"))).toBe(false);
    expect(epic.labelEvents.get.input().parse({ id: "team", epic_id: "12", resource_label_event_id: "3" })).toEqual({ id: "team", epic_id: 12, resource_label_event_id: 3 });
    expect(() => epic.labelEvents.get.input().parse({ id: "team", epic_id: "12", resource_label_event_id: "x" })).toThrow();
  });
});
