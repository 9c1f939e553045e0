import { createHash } from "node:crypto";
import { findDiffLine, lineCode } from "./diff-positions";

const diff = "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -10,2 +10,3 @@\n x\n+y\n z\n";
const sha = createHash("sha1").update("f.txt").digest("hex");

describe("findDiffLine", () => {
  it("finds unchanged, removed and added lines with GitLab's line codes", () => {
    expect(findDiffLine("f.txt", diff, { old_line: 1, new_line: 1 })).toEqual({ line: { oldLine: 1, newLine: 1 }, lineCode: `${sha}_1_1` });
    expect(findDiffLine("f.txt", diff, { old_line: 2 })).toEqual({ line: { oldLine: 2, newLine: null }, lineCode: `${sha}_2_2` });
    expect(findDiffLine("f.txt", diff, { new_line: 2 })).toEqual({ line: { oldLine: null, newLine: 2 }, lineCode: `${sha}_3_2` });
    expect(findDiffLine("f.txt", diff, { new_line: 11 })?.lineCode).toBe(`${sha}_11_11`);
    expect(findDiffLine("f.txt", diff, { old_line: 11, new_line: 12 })?.line).toEqual({ oldLine: 11, newLine: 12 });
  });

  it("answers null for a line the diff does not show, or a side it is not on", () => {
    expect(findDiffLine("f.txt", diff, { new_line: 5 })).toBeNull();
    expect(findDiffLine("f.txt", diff, { new_line: 1 })).toBeNull();
    expect(findDiffLine("f.txt", diff, { old_line: 2, new_line: 2 })).toBeNull();
    expect(findDiffLine("f.txt", diff, {})).toBeNull();
    expect(lineCode("f.txt", 0, 0)).toBe(`${sha}_0_0`);
    // A new file's lines: old position 0.
    expect(findDiffLine("f.txt", "@@ -0,0 +1,2 @@\n+a\n+b\n", { new_line: 2 })?.lineCode).toBe(`${sha}_0_2`);
  });
});
