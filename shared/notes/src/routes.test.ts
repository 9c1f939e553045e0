import { noteContract, unresolvableNoteContract } from "@collab/notes-contract";
import { isNoteCreatingAction, noteRoutes } from "./routes";

describe("noteRoutes", () => {
  test("mounts the kind's routes under its noteable path and service", () => {
    const routes = noteRoutes("mr", "/projects/:id/merge_requests/:merge_request_iid", { resolvable: true });
    expect(routes.every((r) => r.path.startsWith("/projects/:id/merge_requests/:merge_request_iid/") && r.action.startsWith("mr."))).toBe(true);
    expect(routes).toContainEqual({ method: "PUT", path: "/projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id", action: "mr.discussions.resolve" });
  });

  test("no thread resolution route for a kind without resolvable threads", () => {
    const routes = noteRoutes("issues", "/projects/:id/issues/:issue_iid", { resolvable: false });
    expect(routes.some((r) => r.action.endsWith(".discussions.resolve"))).toBe(false);
    expect(routes).toHaveLength(14);
  });

  test("built from a service's note entries, as by its name", () => {
    const path = "/projects/:id/merge_requests/:merge_request_iid";
    expect(noteRoutes(noteContract("merge-requests"), path, { resolvable: true })).toEqual(noteRoutes("merge-requests", path, { resolvable: true }));
    expect(() => noteRoutes(unresolvableNoteContract("issues"), "/x", { resolvable: true })).toThrow(/discussions.resolve/);
  });

  test("the note-creating actions of any service count for the notes rate limit", () => {
    const creating = noteRoutes("mr", "/x", { resolvable: true }).filter((r) => isNoteCreatingAction(r.action));
    expect(creating.map((r) => r.action).sort()).toEqual(["mr.discussions.create", "mr.discussions.reply", "mr.notes.create"]);
    expect(isNoteCreatingAction(noteContract("issues").notes.update.name)).toBe(false);
  });
});
