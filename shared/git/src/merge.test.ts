import { importCommits, tempRepository } from "./fixtures";
import { MergeConflictError } from "./errors";
import { readCommits } from "./objects";
import { getRawFile } from "./blob";
import { branchTarget, isAncestor } from "./refs";
import { listCommits } from "./log";
import { canFastForward, checkMerge, fastForward, mergeCommit, mergeToRef, rebase, squash } from "./merge";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

const user = { name: "Merger", email: "merger@example.com" };
const alice = { name: "Alice", email: "alice@example.com" };
const read = async (path: string, ref = "main") => (await getRawFile(repo.path, ref, path))?.content.toString();

/** main: base → m1 (edits a.txt line 1); feature: base → f1 (adds f.txt) → f2 (edits a.txt line 3). */
async function diverged() {
  return importCommits(repo.path, [
    { message: "base", files: { "a.txt": "1\n2\n3\n" } },
    { message: "m1", files: { "a.txt": "ONE\n2\n3\n" } },
    { branch: "feature", from: 0, message: "f1\n\nfirst feature commit", files: { "f.txt": "f\n" }, author: alice, date: 1_650_000_000 },
    { branch: "feature", message: "f2", files: { "a.txt": "1\n2\nTHREE\n" }, author: alice },
  ]);
}

/** feature changes the same line as main. */
async function conflicting() {
  return importCommits(repo.path, [
    { message: "base", files: { "a.txt": "1\n", "ok.txt": "ok\n" } },
    { message: "main", files: { "a.txt": "main\n" } },
    { branch: "feature", from: 0, message: "feature", files: { "a.txt": "feature\n" } },
  ]);
}

describe("checkMerge and mergeCommit", () => {
  it("merges cleanly into a merge commit with both parents, moving the target", async () => {
    const [, m1, , f2] = await diverged();
    expect((await checkMerge(repo.path, m1, f2)).conflicts).toEqual([]);
    const id = await mergeCommit(repo.path, { targetBranch: "main", sourceId: f2, message: "Merge branch 'feature'", committer: user });
    const merged = (await readCommits(repo.path, [id])).get(id)!;
    expect(merged).toMatchObject({ parent_ids: [m1, f2], title: "Merge branch 'feature'", committer_name: "Merger" });
    expect(await branchTarget(repo.path, "main")).toBe(id);
    expect(await read("a.txt")).toBe("ONE\n2\nTHREE\n");
    expect(await read("f.txt")).toBe("f\n");
  });

  it("writes a merge to a ref of its own, leaving the target where it is", async () => {
    const [, m1, , f2] = await diverged();
    const id = await mergeToRef(repo.path, { ref: "refs/merge-requests/1/merge", targetId: m1, sourceId: f2, message: "Merge", committer: user });
    expect((await readCommits(repo.path, [id])).get(id)?.parent_ids).toEqual([m1, f2]);
    expect(await branchTarget(repo.path, "main")).toBe(m1);
    expect(await read("a.txt", "refs/merge-requests/1/merge")).toBe("ONE\n2\nTHREE\n");
  });

  it("reports conflicts with their paths and moves nothing", async () => {
    const [, m, f] = await conflicting();
    expect(await checkMerge(repo.path, m, f)).toEqual({ tree: null, conflicts: ["a.txt"] });
    const attempt = mergeCommit(repo.path, { targetBranch: "main", sourceId: f, message: "m", committer: user });
    await expect(attempt).rejects.toBeInstanceOf(MergeConflictError);
    await expect(attempt).rejects.toMatchObject({ kind: "conflict", paths: ["a.txt"] });
    expect(await branchTarget(repo.path, "main")).toBe(m);
  });

  it("refuses when the target moved since the caller read it", async () => {
    const [base, , , f2] = await diverged();
    await expect(mergeCommit(repo.path, { targetBranch: "main", expectedTargetId: base, sourceId: f2, message: "m", committer: user })).rejects.toMatchObject({
      kind: "stale",
    });
    await expect(mergeCommit(repo.path, { targetBranch: "gone", sourceId: f2, message: "m", committer: user })).rejects.toMatchObject({ kind: "not_found" });
  });

  it("answers unrelated histories as not mergeable", async () => {
    const [a, b] = await importCommits(repo.path, [
      { message: "a", files: { a: "a" } },
      { branch: "orphan", message: "b", files: { b: "b" } },
    ]);
    expect(await checkMerge(repo.path, a, b)).toEqual({ tree: null, conflicts: [] });
  });
});

describe("fast-forward and semi-linear", () => {
  it("fast-forwards only when the target is in the source's history", async () => {
    const [base, m1, , f2] = await diverged();
    expect(await canFastForward(repo.path, m1, f2)).toBe(false);
    await expect(fastForward(repo.path, { targetBranch: "main", sourceId: f2 })).rejects.toMatchObject({ kind: "conflict" });
    expect(await canFastForward(repo.path, base, f2)).toBe(true);
    const rebased = await rebase(repo.path, { branch: "feature", targetId: m1, committer: user });
    expect(await canFastForward(repo.path, m1, rebased)).toBe(true);
    expect(await fastForward(repo.path, { targetBranch: "main", sourceId: rebased, expectedTargetId: m1 })).toBe(rebased);
    expect(await branchTarget(repo.path, "main")).toBe(rebased);
  });
});

describe("squash", () => {
  it("makes one commit with the source's tree on the merge base", async () => {
    const [base, m1, , f2] = await diverged();
    const id = await squash(repo.path, { sourceId: f2, targetId: m1, message: "Squashed", author: alice, committer: user });
    const c = (await readCommits(repo.path, [id])).get(id)!;
    expect(c).toMatchObject({ parent_ids: [base], message: "Squashed", author_name: "Alice", committer_name: "Merger" });
    expect(await read("a.txt", id)).toBe("1\n2\nTHREE\n");
    expect(await read("f.txt", id)).toBe("f\n");
    expect(await branchTarget(repo.path, "feature")).toBe(f2);
    const merged = await mergeCommit(repo.path, { targetBranch: "main", sourceId: id, message: "Merge", committer: user });
    expect(await read("a.txt", merged)).toBe("ONE\n2\nTHREE\n");
  });
});

describe("rebase", () => {
  it("replays the branch's commits on the target, keeping authors, dates and messages", async () => {
    const [, m1, f1, f2] = await diverged();
    const head = await rebase(repo.path, { branch: "feature", expectedSourceId: f2, targetId: m1, committer: user });
    expect(await branchTarget(repo.path, "feature")).toBe(head);
    const commits = (await listCommits(repo.path, { ref: "feature" }))!.commits;
    expect(commits.map((c) => c.title)).toEqual(["f2", "f1", "m1", "base"]);
    expect(commits[1]).toMatchObject({ message: "f1\n\nfirst feature commit", author_name: "Alice", authored_date: "2022-04-15T05:20:00+00:00", committer_name: "Merger" });
    expect(commits[1].parent_ids).toEqual([m1]);
    expect(commits[0].id).not.toBe(f2);
    expect(commits[1].id).not.toBe(f1);
    expect(await read("a.txt", "feature")).toBe("ONE\n2\nTHREE\n");
    // already on top of the target: nothing is rewritten
    expect(await rebase(repo.path, { branch: "feature", targetId: m1, committer: user })).toBe(head);
    expect(await isAncestor(repo.path, m1, head)).toBe(true);
  });

  it("stops on a conflict and leaves the branch where it was", async () => {
    const [, m, f] = await conflicting();
    await expect(rebase(repo.path, { branch: "feature", targetId: m, committer: user })).rejects.toMatchObject({ kind: "conflict", paths: ["a.txt"] });
    expect(await branchTarget(repo.path, "feature")).toBe(f);
  });

  it("refuses when the branch moved since the caller read it", async () => {
    const [base, m1] = await diverged();
    await expect(rebase(repo.path, { branch: "feature", expectedSourceId: base, targetId: m1, committer: user })).rejects.toMatchObject({ kind: "stale" });
  });
});
