import { closingIssueRefs } from "./closing-pattern";

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
