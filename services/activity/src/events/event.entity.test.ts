import type { ProjectEventRow } from "../db/schema";
import { actionName, presentEvent } from "./event.entity";
import { EventFilterParams } from "@collab/activity-contract";

const row = (over: Partial<ProjectEventRow>): ProjectEventRow => ({
  id: 1, sourceEventId: "x", projectId: 2, groupId: null, authorId: 3, action: "created", targetType: "Issue", targetId: 4, targetIid: 5, targetTitle: "T",
  confidential: false, internal: false, note: null, pushData: null, createdAt: new Date("2026-01-01T00:00:00Z"), ...over,
});
const push = (action: "pushed" | "created" | "removed") => ({ commit_count: 1, action, ref_type: "branch" as const, commit_from: null, commit_to: null, ref: "m", commit_title: null });

it("names actions as GitLab does", () => {
  expect(actionName(row({}))).toBe("opened");
  expect(actionName(row({ action: "reopened" }))).toBe("opened");
  expect(actionName(row({ action: "created", targetType: null }))).toBe("created");
  expect(actionName(row({ action: "merged" }))).toBe("accepted");
  expect(actionName(row({ action: "commented" }))).toBe("commented on");
  expect(actionName(row({ action: "destroyed" }))).toBe("destroyed");
  expect(actionName(row({ action: "joined", targetType: null }))).toBe("joined");
  expect(actionName(row({ action: "pushed", pushData: push("created") }))).toBe("pushed new");
  expect(actionName(row({ action: "pushed", pushData: push("removed") }))).toBe("deleted");
  expect(actionName(row({ action: "pushed", pushData: push("pushed") }))).toBe("pushed to");
});

it("presents the spec's shape: author ref, note for comments, push_data for pushes", () => {
  const author = { id: 3, username: "u", name: "U", state: "active", locked: false, avatar_url: null, web_url: "w" };
  const users = new Map([[3, author]]);
  expect(presentEvent(row({}), users)).toEqual({
    id: 1, title: null, project_id: 2, action_name: "opened", target_id: 4, target_iid: 5, target_type: "Issue", author_id: 3, target_title: "T",
    created_at: "2026-01-01T00:00:00.000Z", author, author_username: "u", imported: false, imported_from: "none", data: null,
  });
  const note = { id: 9, body: "b", system: false, noteable_id: 4, noteable_type: "Issue", noteable_iid: 5, author_id: 3, created_at: "c" };
  expect(presentEvent(row({ action: "commented", targetType: "Note", note }), users).note).toEqual({
    id: 9, body: "b", attachment: null, author, created_at: "c", system: false, noteable_id: 4, noteable_type: "Issue", noteable_iid: 5,
  });
  // A row recorded before ref_count was kept presents it as null, as one recorded since.
  expect(presentEvent(row({ action: "pushed", targetType: null, pushData: push("pushed") }), users).push_data).toEqual({ ...push("pushed"), ref_count: null });
  expect(presentEvent(row({ action: "pushed", targetType: null, pushData: { ...push("pushed"), ref_count: null } }), users).push_data).toEqual({ ...push("pushed"), ref_count: null });
  expect(presentEvent(row({}), new Map())).toMatchObject({ author: null, author_username: null });
});

it("parses the filters as Grape does", () => {
  expect(EventFilterParams.parse({})).toEqual({ sort: "desc", page: 1, per_page: 20 });
  expect(EventFilterParams.parse({ per_page: "500", action: "merged", target_type: "merge_request", before: "2026-01-02" })).toMatchObject({ per_page: 100, action: "merged" });
  // epic stays a valid filter (it finds nothing: the Events API lists no epic events).
  expect(EventFilterParams.parse({ target_type: "epic" }).target_type).toBe("epic");
  expect(EventFilterParams.safeParse({ target_type: "work_item" }).success).toBe(false);
  expect(EventFilterParams.safeParse({ action: "opened" }).success).toBe(false);
  expect(EventFilterParams.safeParse({ after: "2026-02-30" }).success).toBe(false);
});
