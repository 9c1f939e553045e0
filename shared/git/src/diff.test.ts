import { importCommits, tempRepository } from "./fixtures";
import { commitDiff, compare, countChangedPaths, diffBetween, rawDiff } from "./diff";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

const long = Array.from({ length: 30 }, (_, i) => `line ${i} of a file long enough for rename detection`).join("\n") + "\n";

/** c0: several files; c1: modify, add, delete, rename, chmod, binary, unicode path. */
async function seed() {
  return importCommits(repo.path, [
    {
      message: "base",
      files: { "mod.txt": "a\nb\nc\n", "gone.txt": "bye\n", "old name.txt": long, "script.sh": "echo\n", "img.bin": Buffer.from([0, 1, 2, 3]) },
    },
    {
      message: "changes",
      files: {
        "mod.txt": "a\nB\nc\n",
        "new.txt": "new\n",
        "gone.txt": null,
        "old name.txt": null,
        "dir/new name.txt": long,
        "script.sh": "echo\n",
        "img.bin": Buffer.from([0, 9, 9, 9]),
        "ünïcødé/ファイル.md": "héllo\n",
      },
      executable: ["script.sh"],
    },
  ]);
}

describe("diffBetween", () => {
  it("answers GitLab's diff entries with renames, modes, binaries and unicode paths", async () => {
    const [c0, c1] = await seed();
    const { diffs, overflow } = await diffBetween(repo.path, c0, c1);
    expect(overflow).toBe(false);
    const by = (p: string) => diffs.find((d) => d.new_path === p)!;
    expect(diffs).toHaveLength(7);
    expect(by("mod.txt")).toMatchObject({
      old_path: "mod.txt",
      a_mode: "100644",
      b_mode: "100644",
      new_file: false,
      deleted_file: false,
      renamed_file: false,
      too_large: false,
      collapsed: false,
      diff: "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    });
    expect(by("new.txt")).toMatchObject({ new_file: true, a_mode: "0", b_mode: "100644", diff: "@@ -0,0 +1 @@\n+new\n" });
    expect(by("gone.txt")).toMatchObject({ deleted_file: true, b_mode: "0", diff: "@@ -1 +0,0 @@\n-bye\n" });
    expect(by("dir/new name.txt")).toMatchObject({ old_path: "old name.txt", renamed_file: true, new_file: false, diff: "" });
    expect(by("script.sh")).toMatchObject({ a_mode: "100644", b_mode: "100755", diff: "" });
    expect(by("img.bin")).toMatchObject({ binary: true, diff: "Binary files a/img.bin and b/img.bin differ\n" });
    expect(by("ünïcødé/ファイル.md")).toMatchObject({ new_file: true, diff: "@@ -0,0 +1 @@\n+héllo\n" });
    expect(by("mod.txt").b_id).toMatch(/^[0-9a-f]{40}$/);
  });

  it("limits files and patch sizes as GitLab does", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`f${i}.txt`] = `${i}\n`;
    files["big.txt"] = "x".repeat(300 * 1024) + "\n";
    files["medium.txt"] = "m".repeat(30 * 1024) + "\n";
    const [c0] = await importCommits(repo.path, [{ message: "many", files }]);
    const all = await diffBetween(repo.path, null, c0);
    expect(all.overflow).toBe(false);
    expect(all.diffs.find((d) => d.new_path === "big.txt")).toMatchObject({ too_large: true, diff: "" });
    expect(all.diffs.find((d) => d.new_path === "medium.txt")).toMatchObject({ collapsed: false, too_large: false });
    const collapsed = await diffBetween(repo.path, null, c0, { expanded: false });
    expect(collapsed.diffs.find((d) => d.new_path === "medium.txt")).toMatchObject({ collapsed: true, diff: "" });
    const cut = await diffBetween(repo.path, null, c0, { maxFiles: 3 });
    expect(cut).toMatchObject({ overflow: true });
    expect(cut.diffs).toHaveLength(3);
    const lines = await diffBetween(repo.path, null, c0, { maxLines: 4 });
    expect(lines.overflow).toBe(true);
    expect(lines.diffs.length).toBeLessThan(4);
  });

  it("diffs a commit against its first parent, a root commit against nothing", async () => {
    const [c0, c1] = await seed();
    expect((await commitDiff(repo.path, c0))?.diffs.every((d) => d.new_file)).toBe(true);
    expect((await commitDiff(repo.path, "main"))?.diffs).toHaveLength(7);
    expect(await commitDiff(repo.path, "nope")).toBeNull();
    const patch = (await rawDiff(repo.path, c0, c1)).toString();
    expect(patch).toContain("diff --git a/mod.txt b/mod.txt");
    expect(patch).toContain("rename from old name.txt");
  });
});

describe("countChangedPaths", () => {
  it("counts files as diffBetween lists them, a rename once", async () => {
    const [c0, c1] = await seed();
    const { diffs } = await diffBetween(repo.path, c0, c1);
    expect(await countChangedPaths(repo.path, c0, c1)).toBe(diffs.length);
    expect(await countChangedPaths(repo.path, c1, c1)).toBe(0);
  });
});

describe("compare", () => {
  it("compares from the merge base unless straight", async () => {
    const [c0, c1, c2, c3] = await importCommits(repo.path, [
      { message: "base", files: { "a.txt": "a\n" } },
      { message: "main moves", files: { "m.txt": "m\n" } },
      { branch: "feature", from: 0, message: "feature 1", files: { "f.txt": "1\n" } },
      { branch: "feature", message: "feature 2", files: { "f.txt": "2\n" } },
    ]);
    const c = await compare(repo.path, "main", "feature");
    expect(c).toMatchObject({ compare_same_ref: false, overflow: false, base_id: c0, from_id: c1, to_id: c3 });
    expect(c?.commits.map((x) => x.id)).toEqual([c2, c3]);
    expect(c?.diffs.map((d) => d.new_path)).toEqual(["f.txt"]);
    const straight = await compare(repo.path, "main", "feature", { straight: true });
    expect(straight?.diffs.map((d) => [d.new_path, d.deleted_file])).toEqual([
      ["f.txt", false],
      ["m.txt", true],
    ]);
    const same = await compare(repo.path, "main", "main");
    expect(same).toMatchObject({ compare_same_ref: true, commits: [], diffs: [] });
    expect(await compare(repo.path, "main", "nope")).toBeNull();
  });
});
