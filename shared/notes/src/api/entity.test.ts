import type { UserRef } from "@collab/core";
import type { NoteRow, StateEventRow } from "../db/tables";
import { presentDiscussion, presentNote, presentStateEvent, type NoteContext } from "./entity";

const at = new Date("2024-05-01T10:00:00Z");
const note = (over: Partial<NoteRow> = {}): NoteRow => ({
  id: 1,
  noteableType: "MergeRequest",
  noteableId: 10,
  commitId: null,
  projectId: 3,
  authorId: 7,
  body: "hello",
  system: false,
  internal: false,
  type: "DiscussionNote",
  discussionId: "d1",
  resolvable: false,
  resolvedAt: null,
  resolvedById: null,
  position: null,
  imported: false,
  updatedById: null,
  createdAt: at,
  updatedAt: at,
  ...over,
});
const user = (id: number) => ({ id, username: `u${id}` }) as unknown as UserRef;
const c: NoteContext = { users: new Map([7, 8].map((id) => [id, user(id)])), iids: new Map([[10, 4]]) };

describe("presentNote", () => {
  test("a note that is not resolvable says so and carries no resolution fields", () => {
    const out = presentNote(note({ type: null }), c);
    expect(out.resolvable).toBe(false);
    expect(out).not.toHaveProperty("resolved");
    expect(out).not.toHaveProperty("resolved_by");
    expect(out).not.toHaveProperty("resolved_at");
    expect(out).toMatchObject({ noteable_iid: 4, noteable_type: "MergeRequest", author: user(7), created_at: at.toISOString() });
  });

  test("an unresolved resolvable note", () => {
    expect(presentNote(note({ resolvable: true }), c)).toMatchObject({ resolvable: true, resolved: false, resolved_by: null, resolved_at: null });
  });

  test("a resolved note names who resolved it and when", () => {
    const resolvedAt = new Date("2024-05-02T00:00:00Z");
    const out = presentNote(note({ resolvable: true, resolvedAt, resolvedById: 8 }), c);
    expect(out).toMatchObject({ resolved: true, resolved_by: user(8), resolved_at: resolvedAt.toISOString() });
  });
});

test("a note on a group's noteable (an epic) has no project", () => {
  expect(presentNote(note({ noteableType: "Epic", projectId: null, type: null }), c)).toMatchObject({ noteable_type: "Epic", noteable_id: 10, noteable_iid: 4, project_id: null });
});

describe("presentDiscussion", () => {
  test("a standalone comment is an individual note; a thread is not", () => {
    expect(presentDiscussion("d1", [note({ type: null })], c).individual_note).toBe(true);
    expect(presentDiscussion("d1", [note(), note({ id: 2 })], c)).toMatchObject({ id: "d1", individual_note: false, notes: [{ id: 1 }, { id: 2 }] });
  });
});

describe("presentStateEvent", () => {
  const event = (over: Partial<StateEventRow>): StateEventRow => ({ id: 5, userId: 7, issueId: null, mergeRequestId: null, epicId: null, state: "closed", createdAt: at, ...over });
  test("names the resource by the column it points through", () => {
    expect(presentStateEvent(event({ issueId: 10 }), c.users)).toMatchObject({ resource_type: "Issue", resource_id: 10, user: user(7), state: "closed" });
    expect(presentStateEvent(event({ mergeRequestId: 11, state: "merged" }), c.users)).toMatchObject({ resource_type: "MergeRequest", resource_id: 11, state: "merged" });
    expect(presentStateEvent(event({ epicId: 12, state: "reopened" }), c.users)).toMatchObject({ resource_type: "Epic", resource_id: 12, state: "reopened" });
  });
});
