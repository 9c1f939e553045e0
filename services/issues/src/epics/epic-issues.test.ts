import { errorBodyOf } from "@collab/core";
import { checkEpicConfidentiality, epicMayHold, epicReferenceFrom, groupPathAbove, projectUnderGroup } from "./epic-issues";

/** A project platform/billing/web: group 1 (platform), its subgroup 2 (billing). */
const web = { namespace_id: 2, path_with_namespace: "platform/billing/web", group_ids: [1, 2] };
const personal = { namespace_id: 9, path_with_namespace: "alice/dotfiles", group_ids: [] };

test("a group's path is read off the project's path, for its group and those above", () => {
  expect([groupPathAbove(web, 1), groupPathAbove(web, 2), groupPathAbove(web, 3), groupPathAbove(personal, 9)]).toEqual(["platform", "platform/billing", undefined, undefined]);
});

test("an epic may hold issues of its group's projects and those below it only", () => {
  expect([projectUnderGroup(web, 1), projectUnderGroup(web, 2), projectUnderGroup(web, 3), projectUnderGroup(personal, 9)]).toEqual([true, true, false, false]);
  // Issues and incidents only: test cases and tasks sit in no epic.
  expect(["issue", "incident", "test_case", "task"].map((issueType) => epicMayHold(1, { issueType }, web))).toEqual([true, true, false, false]);
  expect(epicMayHold(3, { issueType: "issue" }, web)).toBe(false);
});

test("an epic is named from the issue's project: bare in the project's own group, else with its group's path", () => {
  expect(epicReferenceFrom(web, { iid: 4, groupId: 2 })).toBe("&4");
  expect(epicReferenceFrom(web, { iid: 4, groupId: 1 })).toBe("platform&4");
});

test("a confidential epic refuses an open issue with GitLab's 422", () => {
  expect(() => checkEpicConfidentiality({ confidential: false }, { iid: 5, confidential: false })).not.toThrow();
  expect(() => checkEpicConfidentiality({ confidential: true }, { iid: 5, confidential: true })).not.toThrow();
  let thrown: unknown;
  try {
    checkEpicConfidentiality({ confidential: true }, { iid: 5, confidential: false });
  } catch (err) {
    thrown = err;
  }
  expect(errorBodyOf(thrown)).toEqual({
    status: 422,
    body: { message: "#5 cannot be added: Cannot assign a confidential epic to a non-confidential issue. Make the issue confidential and try again" },
  });
});
