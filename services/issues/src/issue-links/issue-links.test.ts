import { CreateIssueLinkParams, IssuesStatisticsParams } from "@collab/issues-contract";
import { linkTypeFrom } from "./issue-links.finder";

describe("issue links", () => {
  test("a stored link seen from each side: the target of a blocks link is blocked by its source", () => {
    expect(linkTypeFrom({ sourceId: 1, linkType: "blocks" }, 1)).toBe("blocks");
    expect(linkTypeFrom({ sourceId: 1, linkType: "blocks" }, 2)).toBe("is_blocked_by");
    expect(linkTypeFrom({ sourceId: 1, linkType: "relates_to" }, 2)).toBe("relates_to");
  });

  test("params: relates_to by default, GitLab's three types only, the target required", () => {
    expect(CreateIssueLinkParams.parse({ id: "1", issue_iid: "2", target_project_id: 3, target_issue_iid: "4" })).toEqual({
      id: "1",
      issue_iid: 2,
      target_project_id: "3",
      target_issue_iid: 4,
      link_type: "relates_to",
    });
    expect(CreateIssueLinkParams.safeParse({ id: "1", issue_iid: 2, target_project_id: "g/p", target_issue_iid: 4, link_type: "duplicates" }).success).toBe(false);
    expect(CreateIssueLinkParams.safeParse({ id: "1", issue_iid: 2, target_project_id: "g/p" }).success).toBe(false);
  });
});

describe("issues statistics params", () => {
  test("the list's filters with their validation, without its order, state or page", () => {
    const p = IssuesStatisticsParams.parse({ labels: "a,b", confidential: "true", order_by: "title", state: "closed", per_page: 5, scope: "assigned-to-me" });
    expect(p).toEqual({ labels: ["a", "b"], confidential: true, scope: "assigned_to_me" });
    expect(IssuesStatisticsParams.safeParse({ author_id: 1, author_username: "x" }).success).toBe(false);
    expect(IssuesStatisticsParams.safeParse({ milestone_id: "Sometime" }).success).toBe(false);
  });
});
