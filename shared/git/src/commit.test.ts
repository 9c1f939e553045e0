import { gitText } from "./run";
import { importCommits, tempRepository } from "./fixtures";
import { createCommit, type CommitAction, type CreateCommitParams } from "./commit";
import { getRawFile } from "./blob";
import { listTree } from "./tree";
import { branchTarget, getDefaultBranch } from "./refs";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

const user = { name: "Committer", email: "committer@example.com" };
const commit = (actions: CommitAction[], o: Partial<CreateCommitParams> = {}) =>
  createCommit(repo.path, { branch: "main", commit_message: "change", committer: user, actions, ...o });
const read = async (path: string, ref = "main") => (await getRawFile(repo.path, ref, path))?.content.toString();
const paths = async (ref = "main") => (await listTree(repo.path, ref, { recursive: true, perPage: 100 }))?.entries.filter((e) => e.type === "blob").map((e) => e.path);

describe("createCommit", () => {
  it("makes the first commit of an empty repository on a new default branch", async () => {
    const c = await commit([{ action: "create", file_path: "README.md", content: "# Hello\n" }], { branch: "trunk", commit_message: "Initial commit" });
    expect(c).toMatchObject({ title: "Initial commit", message: "Initial commit", parent_ids: [], author_name: "Committer", committer_email: "committer@example.com" });
    expect(await branchTarget(repo.path, "trunk")).toBe(c.id);
    expect(await getDefaultBranch(repo.path)).toBe("trunk");
    expect((await gitText(repo.path, ["symbolic-ref", "HEAD"])).trim()).toBe("refs/heads/trunk");
    expect(await read("README.md", "trunk")).toBe("# Hello\n");
  });

  it("applies create, update, delete, move and chmod in one commit", async () => {
    const [base] = await importCommits(repo.path, [{ message: "base", files: { "a.txt": "a", "b.txt": "b", "dir/c.txt": "c", "run.sh": "x" } }]);
    const author = { name: "Author", email: "author@example.com" };
    const c = await commit(
      [
        { action: "create", file_path: "new/ファイル.bin", content: Buffer.from([0, 1, 255]).toString("base64"), encoding: "base64" },
        { action: "update", file_path: "a.txt", content: "A" },
        { action: "delete", file_path: "b.txt" },
        { action: "move", previous_path: "dir/c.txt", file_path: "moved/c.txt" },
        { action: "move", previous_path: "run.sh", file_path: "bin/run.sh", content: "y" },
        { action: "chmod", file_path: "bin/run.sh", execute_filemode: true },
      ],
      { author, commit_message: "Many changes\n\nWith a body." },
    );
    expect(c).toMatchObject({ parent_ids: [base], author_name: "Author", committer_name: "Committer", message: "Many changes\n\nWith a body." });
    expect((await paths())?.sort()).toEqual(["a.txt", "bin/run.sh", "moved/c.txt", "new/ファイル.bin"]);
    expect(await read("a.txt")).toBe("A");
    expect(await read("moved/c.txt")).toBe("c");
    expect(await read("bin/run.sh")).toBe("y");
    expect((await getRawFile(repo.path, "main", "bin/run.sh"))?.execute_filemode).toBe(true);
    expect((await getRawFile(repo.path, "main", "new/ファイル.bin"))?.content.equals(Buffer.from([0, 1, 255]))).toBe(true);
  });

  it("refuses actions with GitLab's messages and moves nothing", async () => {
    const [base] = await importCommits(repo.path, [{ message: "base", files: { "a.txt": "a", "dir/c.txt": "c" } }]);
    const refused = async (actions: CommitAction[], message: string) => {
      await expect(commit(actions)).rejects.toMatchObject({ kind: "invalid", message });
      expect(await branchTarget(repo.path, "main")).toBe(base);
    };
    await refused([{ action: "create", file_path: "a.txt", content: "x" }], "A file with this name already exists");
    await refused([{ action: "create", file_path: "dir", content: "x" }], "A directory with this name already exists");
    await refused([{ action: "create", file_path: "a.txt/under", content: "x" }], "A file with this name already exists");
    await refused([{ action: "update", file_path: "nope.txt", content: "x" }], "A file with this name doesn't exist");
    await refused([{ action: "delete", file_path: "nope.txt" }], "A file with this name doesn't exist");
    await refused([{ action: "chmod", file_path: "nope.txt", execute_filemode: true }], "A file with this name doesn't exist");
    await refused([{ action: "move", previous_path: "nope.txt", file_path: "x.txt" }], "A file with this name doesn't exist");
    await refused([{ action: "move", previous_path: "a.txt", file_path: "dir/c.txt" }], "A file with this name already exists");
    await refused([{ action: "create", file_path: "../escape", content: "x" }], "Path cannot include directory traversal");
    await refused([{ action: "create", file_path: ".git/config", content: "x" }], "Invalid path");
    await refused([{ action: "update", file_path: "a.txt", content: "x", last_commit_id: "1".repeat(40) }], "The file has changed since you started editing it: a.txt");
    // last step fails: the earlier ones of the same commit do not land either
    await refused(
      [
        { action: "create", file_path: "fine.txt", content: "x" },
        { action: "delete", file_path: "nope.txt" },
      ],
      "A file with this name doesn't exist",
    );
  });

  it("follows GitLab's rules for start_branch, start_sha and force", async () => {
    const [c0, c1] = await importCommits(repo.path, [
      { message: "c0", files: { "a.txt": "0" } },
      { message: "c1", files: { "a.txt": "1" } },
    ]);
    const create = (n: string): CommitAction[] => [{ action: "create", file_path: n, content: n }];
    const fromMain = await commit(create("f.txt"), { branch: "feature", start_branch: "main" });
    expect(fromMain.parent_ids).toEqual([c1]);
    await expect(commit(create("g.txt"), { branch: "feature", start_branch: "main" })).rejects.toThrow(
      "A branch called 'feature' already exists. Switch to that branch in order to make changes",
    );
    const forced = await commit(create("g.txt"), { branch: "feature", start_branch: "main", force: true });
    expect(forced.parent_ids).toEqual([c1]);
    expect(await paths("feature")).toEqual(["a.txt", "g.txt"]);
    const fromSha = await commit(create("h.txt"), { branch: "old", start_sha: c0 });
    expect(fromSha.parent_ids).toEqual([c0]);
    await expect(commit(create("x"), { branch: "nope" })).rejects.toThrow("You can only create or edit files when you are on a branch");
    await expect(commit(create("x"), { branch: "y", start_branch: "missing" })).rejects.toThrow("You can only create or edit files when you are on a branch");
    await expect(commit(create("x"), { branch: "y", start_sha: "abc" })).rejects.toThrow("Invalid start_sha 'abc'");
    await expect(commit(create("x"), { branch: "y", start_sha: "2".repeat(40) })).rejects.toThrow(`Cannot find start_sha '${"2".repeat(40)}'`);
    await expect(commit(create("x"), { branch: "y", start_sha: c0, start_branch: "main" })).rejects.toThrow("You can't pass both start_branch and start_sha");
    await expect(commit(create("x"), { branch: "--upload-pack=evil", start_branch: "main" })).rejects.toThrow(
      "Something went wrong when we tried to create '--upload-pack=evil' for you: Branch name is invalid",
    );
    await expect(commit(create("x"), { author: { name: "Evil <x>", email: "e@example.com" } })).rejects.toThrow("Invalid author");
  });
});
