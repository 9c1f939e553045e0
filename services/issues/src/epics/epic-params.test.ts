import { AssignEpicIssueParams, CreateEpicParams, CreateIssueParams, fixedDates, ListEpicIssuesParams, ListEpicsParams, ReorderEpicIssueParams, UpdateEpicParams, UpdateIssueParams } from "@collab/issues-contract";

describe("epic params", () => {
  test("an update without any field is GitLab's at-least-one error, aliases counting as their fields", () => {
    const empty = UpdateEpicParams.safeParse({ id: "1", epic_iid: 1 });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0].message).toBe(
      "add_labels, confidential, description, due_date_fixed, due_date_is_fixed, labels, parent_id, remove_labels, start_date_fixed, start_date_is_fixed, state_event, title, updated_at, color are missing, at least one parameter must be provided",
    );
    expect(UpdateEpicParams.safeParse({ id: "1", epic_iid: 1, end_date: "2026-05-01" }).success).toBe(true);
  });

  test("fixed dates: the newer names win over start_date and end_date; an empty date clears", () => {
    const p = CreateEpicParams.parse({ id: "1", title: "x", start_date: "2026-01-01", start_date_fixed: "2026-02-01", end_date: "" });
    expect(fixedDates(p)).toEqual({ start: "2026-02-01", due: null });
    expect(fixedDates(CreateEpicParams.parse({ id: "1", title: "x" }))).toEqual({ start: undefined, due: undefined });
  });

  test("parent_id 0 or empty means none; labels take a comma list", () => {
    expect(CreateEpicParams.parse({ id: "1", title: "x", parent_id: "0", labels: "a, b" })).toMatchObject({ parent_id: null, labels: ["a", "b"] });
    expect(CreateEpicParams.safeParse({ id: "1", title: "x", parent_id: -3 }).success).toBe(false);
  });

  test("lists default to every state, newest first, descendant groups included", () => {
    expect(ListEpicsParams.parse({ id: "g" })).toMatchObject({ state: "all", order_by: "created_at", sort: "desc", include_descendant_groups: true, include_ancestor_groups: false });
    expect(ListEpicsParams.safeParse({ id: "g", author_id: 1, author_username: "a" }).error?.issues[0].message).toBe("author_id, author_username are mutually exclusive");
    expect(ListEpicsParams.safeParse({ id: "g", order_by: "weight" }).success).toBe(false);
  });

  test("epic issues: ids are integers, the list pages, a reorder may name either neighbour", () => {
    expect(ListEpicIssuesParams.parse({ id: "g", epic_iid: "2" })).toMatchObject({ epic_iid: 2, page: 1, per_page: 20 });
    expect(AssignEpicIssueParams.parse({ id: "g", epic_iid: 1, issue_id: "77" }).issue_id).toBe(77);
    expect(AssignEpicIssueParams.safeParse({ id: "g", epic_iid: 1, issue_id: "x" }).success).toBe(false);
    expect(ReorderEpicIssueParams.parse({ id: "g", epic_iid: 1, epic_issue_id: 3, move_after_id: "4" })).toMatchObject({ epic_issue_id: 3, move_after_id: 4, page: 1 });
    expect(ReorderEpicIssueParams.safeParse({ id: "g", epic_iid: 1, epic_issue_id: 3, move_before_id: "soon" }).success).toBe(false);
  });
  test("issue writes: epic_id and epic_iid are exclusive, 0 means none, and each counts as an edit", () => {
    expect(CreateIssueParams.safeParse({ id: "1", title: "x", epic_id: 1, epic_iid: 1 }).error?.issues[0].message).toBe("epic_id, epic_iid are mutually exclusive");
    expect(CreateIssueParams.parse({ id: "1", title: "x", epic_id: "0" }).epic_id).toBeNull();
    expect(UpdateIssueParams.parse({ id: "1", issue_iid: 1, epic_iid: 3 }).epic_iid).toBe(3);
  });
});
