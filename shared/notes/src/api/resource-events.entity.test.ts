import type { UserRef } from "@collab/core";
import type { LabelDetail, MilestoneDetail } from "@collab/namespaces-contract";
import { presentIterationEvent, presentLabelEvent, presentMilestoneEvent, presentWeightEvent } from "./resource-events.entity";

const at = new Date("2026-01-02T03:04:05.678Z");
const alice = { id: 7, username: "alice", name: "Alice", state: "active" } as unknown as UserRef;
const users = new Map([[7, alice]]);
const label: LabelDetail = { id: 3, name: "bug", color: "#d9534f", text_color: "#FFFFFF", description: null, description_html: null, priority: 2 };
const milestone = { id: 5, iid: 1, project_id: 9, title: "v1", state: "active" } as unknown as MilestoneDetail;
const row = { id: 1, userId: 7, issueId: null, mergeRequestId: null, epicId: null, createdAt: at };

describe("resource event presenters", () => {
  test("a label event: the label as LabelBasic (no priority), its resource by the set column", () => {
    expect(presentLabelEvent({ ...row, mergeRequestId: 4, labelId: 3, action: "add" }, { users, labels: new Map([[3, label]]) })).toEqual({
      id: 1,
      user: alice,
      created_at: "2026-01-02T03:04:05.678Z",
      resource_type: "MergeRequest",
      resource_id: 4,
      label: { id: 3, name: "bug", color: "#d9534f", text_color: "#FFFFFF", description: null, description_html: null },
      action: "add",
    });
  });

  test("a deleted label or user is null; an epic's event names the epic", () => {
    expect(presentLabelEvent({ ...row, userId: 8, epicId: 2, labelId: 3, action: "remove" }, { users, labels: new Map() })).toMatchObject({
      user: null,
      resource_type: "Epic",
      resource_id: 2,
      label: null,
      action: "remove",
    });
  });

  test("a milestone event carries the milestone and the resource's state then", () => {
    expect(presentMilestoneEvent({ ...row, issueId: 6, milestoneId: 5, action: "remove", state: "closed" }, { users, milestones: new Map([[5, milestone]]) })).toEqual({
      id: 1,
      user: alice,
      created_at: "2026-01-02T03:04:05.678Z",
      resource_type: "Issue",
      resource_id: 6,
      milestone,
      action: "remove",
      state: "closed",
    });
  });

  test("weight and iteration events", () => {
    expect(presentWeightEvent({ ...row, issueId: 6, weight: null }, { users })).toEqual({ id: 1, user: alice, created_at: "2026-01-02T03:04:05.678Z", issue_id: 6, weight: null });
    expect(presentIterationEvent({ ...row, issueId: 6, iterationId: 40, action: "add" }, { users })).toMatchObject({ resource_type: "Issue", resource_id: 6, iteration: null, action: "add" });
  });
});
