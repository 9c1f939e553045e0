import { importCommits, tempRepository } from "./fixtures";
import { getRawFile } from "./blob";
import { branchTarget } from "./refs";
import { readCommits } from "./objects";
import { PickError, pickCommit } from "./pick";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

const user = { name: "Picker", email: "picker@example.com" };
const alice = { name: "Alice", email: "alice@example.com" };
const read = async (path: string, ref = "main") => (await getRawFile(repo.path, ref, path))?.content.toString();

/** main: base → m1 (edits line 1 of a.txt); feature: base → f1 (edits line 3, adds f.txt). */
async function diverged() {
  return importCommits(repo.path, [
    { message: "base", files: { "a.txt": "1\n2\n3\n" } },
    { message: "m1", files: { "a.txt": "ONE\n2\n3\n" } },
    { branch: "feature", from: 0, message: "f1", files: { "a.txt": "1\n2\nTHREE\n", "f.txt": "f\n" }, author: alice },
  ]);
}

describe("pickCommit", () => {
  it("cherry-picks a commit of another branch onto the branch, keeping what the branch changed", async () => {
    const [, m1, f1] = await diverged();
    const { commit, before } = await pickCommit(repo.path, "cherry_pick", { branch: "main", commitId: f1, message: "f1\n\n(cherry picked from commit x)", committer: user, author: alice });
    expect(before).toBe(m1);
    expect(commit).toMatchObject({ parent_ids: [m1], author_name: "Alice", committer_name: "Picker", title: "f1" });
    expect(await branchTarget(repo.path, "main")).toBe(commit!.id);
    expect(await read("a.txt")).toBe("ONE\n2\nTHREE\n");
    expect(await read("f.txt")).toBe("f\n");
  });

  it("reverts a commit's change on a branch, its author the committer", async () => {
    const [, m1] = await diverged();
    await importCommits(repo.path, [{ message: "m2", files: { "b.txt": "b\n" } }]);
    const { commit } = await pickCommit(repo.path, "revert", { branch: "main", commitId: m1, message: 'Revert "m1"', committer: user });
    expect(commit).toMatchObject({ author_name: "Picker", title: 'Revert "m1"' });
    expect(await read("a.txt")).toBe("1\n2\n3\n");
    expect(await read("b.txt")).toBe("b\n");
  });

  it("refuses a change already on the branch (empty) and one that conflicts, moving nothing", async () => {
    const [, m1, f1] = await diverged();
    await expect(pickCommit(repo.path, "cherry_pick", { branch: "main", commitId: m1, message: "again", committer: user })).rejects.toEqual(new PickError("empty"));
    await importCommits(repo.path, [{ message: "m2", files: { "a.txt": "ONE\n2\nthree\n" } }]);
    const head = await branchTarget(repo.path, "main");
    await expect(pickCommit(repo.path, "cherry_pick", { branch: "main", commitId: f1, message: "f1", committer: user })).rejects.toMatchObject({ reason: "conflict" });
    expect(await branchTarget(repo.path, "main")).toBe(head);
  });

  it("writes nothing on a dry run, and refuses a missing branch", async () => {
    const [, m1, f1] = await diverged();
    expect(await pickCommit(repo.path, "cherry_pick", { branch: "main", commitId: f1, message: "f1", committer: user, dryRun: true })).toEqual({ commit: null, before: m1 });
    expect(await branchTarget(repo.path, "main")).toBe(m1);
    await expect(pickCommit(repo.path, "revert", { branch: "nope", commitId: f1, message: "x", committer: user })).rejects.toMatchObject({ kind: "not_found" });
  });

  it("cherry-picks a root commit as the addition of its files", async () => {
    const [base] = await importCommits(repo.path, [{ message: "root", files: { "r.txt": "r\n" } }]);
    await importCommits(repo.path, [{ branch: "other", message: "o", files: { "o.txt": "o\n" } }]);
    // `other` starts from nothing of main's, so the root's file is new to it.
    const { commit } = await pickCommit(repo.path, "cherry_pick", { branch: "other", commitId: base, message: "root again", committer: user });
    expect((await readCommits(repo.path, [commit!.id])).get(commit!.id)?.title).toBe("root again");
    expect(await read("r.txt", "other")).toBe("r\n");
    expect(await read("o.txt", "other")).toBe("o\n");
  });
});
