import { ListMergeRequestsParams, UpdateMergeRequestParams } from "@collab/merge-requests-contract";
import { listParamsForTier } from "./params";

const parse = (v: Record<string, unknown>) => ListMergeRequestsParams.safeParse(v);

describe("merge request list params", () => {
  it("defaults", () => {
    const p = ListMergeRequestsParams.parse({});
    expect(p).toMatchObject({ state: "all", order_by: "created_at", sort: "desc", page: 1, per_page: 20 });
  });
  it("normalises sentinels and dashed scopes", () => {
    const p = ListMergeRequestsParams.parse({ assignee_id: "none", reviewer_id: "ANY", labels: "any", milestone: "None", scope: "assigned-to-me", approved_by_ids: ["Any"] });
    expect(p).toMatchObject({ assignee_id: "None", reviewer_id: "Any", labels: "Any", milestone: "None", scope: "assigned_to_me", approved_by_ids: "Any" });
  });
  it("refuses exclusive pairs and bad values", () => {
    expect(parse({ author_id: 1, author_username: "x" }).success).toBe(false);
    expect(parse({ reviewer_id: 1, reviewer_username: "x" }).success).toBe(false);
    expect(parse({ wip: "yes", draft: true }).success).toBe(false);
    expect(parse({ state: "open" }).success).toBe(false);
    expect(parse({ approved_by_ids: [1, 2, 3, 4, 5, 6] }).success).toBe(false);
    expect(parse({ approved_by_ids: [1, 2, 3, 4, 5] }).success).toBe(true);
  });
  it("drops approval filters on Free", () => {
    const p = listParamsForTier(ListMergeRequestsParams.parse({ approved: "yes", approver_ids: "None" }), "free");
    expect(p.approved).toBeUndefined();
    expect(p.approver_ids).toBeUndefined();
  });
  it("update needs one param", () => {
    expect(UpdateMergeRequestParams.safeParse({ id: "1", merge_request_iid: 1 }).success).toBe(false);
    expect(UpdateMergeRequestParams.safeParse({ id: "1", merge_request_iid: 1, squash: true }).success).toBe(true);
  });
});
