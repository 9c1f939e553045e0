import { closingIssueRefs, issueRefs } from "./closing-pattern";

const refs = (s: string) => closingIssueRefs(s).map((r) => `${r.projectPath ?? ""}#${r.iid}`);

describe("closing pattern", () => {
  it("finds each keyword form", () => {
    for (const k of ["Close", "Closes", "Closed", "Closing", "Fix", "Fixes", "Fixed", "Fixing", "Resolve", "Resolves", "Resolved", "Resolving", "Implement", "Implements", "Implemented", "Implementing"])
      expect(refs(`${k} #4`)).toEqual(["#4"]);
  });
  it("is case-insensitive and takes a colon", () => {
    expect(refs("CLOSES: #1")).toEqual(["#1"]);
    expect(refs("fixes:  #2")).toEqual(["#2"]);
  });
  it("reads lists with commas and and", () => {
    expect(refs("Closes #1, #2 and #3, and group/sub/proj#4")).toEqual(["#1", "#2", "#3", "group/sub/proj#4"]);
    expect(refs("Fixes issues #5 and #6")).toEqual(["#5", "#6"]);
  });
  it("reads past an external tracker's key in the list (GitLab's default pattern has them)", () => {
    expect(refs("Closes PROJ-1, #2 and #3")).toEqual(["#2", "#3"]);
  });
  it("reads issue URLs", () => {
    expect(refs("Resolves http://localhost:3000/group/proj/-/issues/9")).toEqual(["group/proj#9"]);
  });
  it("ignores mentions without a keyword and de-duplicates", () => {
    expect(refs("See #1. Related to #2")).toEqual([]);
    expect(refs("Closes #1\nFixes #1")).toEqual(["#1"]);
    expect(refs("Prefixes #1")).toEqual([]);
    expect(closingIssueRefs(null)).toEqual([]);
  });
});

describe("issueRefs: every issue reference, closing or not", () => {
  test("short, cross-project and URL references, in order, once each", () => {
    expect(
      issueRefs(["See #3 and group/app#4, then https://gitlab.example.com/group/app/-/issues/5", "again #3 and Group/App#4", null, undefined]),
    ).toEqual([
      { projectPath: null, iid: 3 },
      { projectPath: "group/app", iid: 4 },
      { projectPath: "group/app", iid: 5 },
    ]);
  });

  test("leaves out ids no issue can have", () => {
    expect(issueRefs(["#0 #99999999999 #7"])).toEqual([{ projectPath: null, iid: 7 }]);
  });
});
