import { labelSetAfter, resolveWorkItemInput } from "./work-item-input";
import { Namespaces } from "@collab/namespaces-contract";

const ids = (...n: number[]) => n.map((id) => ({ id }));

describe("labelSetAfter (GitLab's order: replace, then add, then remove)", () => {
  test("labels replaces the current set", () => {
    expect(labelSetAfter({ labels: ids(3, 4), add_labels: [], remove_labels: [] }, [1, 2])).toEqual([3, 4]);
  });
  test("without labels, add and remove apply to the current set", () => {
    expect(labelSetAfter({ labels: null, add_labels: ids(5, 1), remove_labels: ids(2) }, [1, 2])).toEqual([1, 5]);
  });
  test("remove wins over add and replace for the same label", () => {
    expect(labelSetAfter({ labels: ids(7), add_labels: ids(8), remove_labels: ids(7, 8) }, [1])).toEqual([]);
  });
  test("labels: [] clears", () => {
    expect(labelSetAfter({ labels: [], add_labels: [], remove_labels: [] }, [1, 2])).toEqual([]);
  });
});

describe("resolveWorkItemInput", () => {
  const ctxAnswering = (answer: object) => {
    const calls: [string, unknown][] = [];
    const ctx = { call: async (name: string, params: unknown) => (calls.push([name, params]), answer) } as never;
    return { ctx, calls };
  };

  test("asks nothing when there is nothing to check; a null milestone unassigns without a lookup", async () => {
    const { ctx, calls } = ctxAnswering({});
    expect(await resolveWorkItemInput(ctx, 1, { userIds: [0, -1], milestoneId: null, labels: {} })).toEqual({ levels: {}, labels: [], milestoneId: null });
    expect(calls).toEqual([]);
  });

  test("one call for users, milestone and labels; only the label params travel", async () => {
    const { ctx, calls } = ctxAnswering({
      assignee_levels: { 5: { access_level: 30, can_read: true } },
      milestone: null,
      labels: { labels: null, add_labels: ids(9), remove_labels: [] },
    });
    const got = await resolveWorkItemInput(ctx, 1, { userIds: [5, 5, 0], milestoneId: 77, labels: { add_labels: ["x"], title: "not a label" } as never }, [2]);
    expect(calls).toEqual([[Namespaces.workItems.resolveInput.name, { project_id: 1, assignee_ids: [5], milestone_id: 77, labels: { labels: undefined, add_labels: ["x"], remove_labels: undefined } }]]);
    // A milestone outside the project's hierarchy comes back null: it unassigns.
    expect(got).toEqual({ levels: { 5: { access_level: 30, can_read: true } }, milestoneId: null, labelIds: [2, 9], labels: ids(9) });
  });

  test("answers the milestone and every label it looked up, for presenting the result", async () => {
    const milestone = { id: 4, due_date: null, title: "v1" };
    const { ctx } = ctxAnswering({ milestone, labels: { labels: ids(1, 2), add_labels: ids(3), remove_labels: ids(2) } });
    const got = await resolveWorkItemInput(ctx, 1, { milestoneId: 4, labels: { labels: ["a", "b"], add_labels: ["c"], remove_labels: ["b"] } });
    expect(got).toMatchObject({ milestoneId: 4, milestone, labelIds: [1, 3], labels: ids(1, 2, 3, 2) });
  });
});
