import { gitText } from "./run";
import { RepositoryError } from "./errors";
import { ZERO_ID } from "./parse";
import { resolveCommit } from "./objects";
import { importCommits, tempRepository } from "./fixtures";
import {
  createBranch,
  createTag,
  deleteBranch,
  findCommitByRevision,
  deleteTag,
  findBranch,
  findTag,
  getDefaultBranch,
  isAncestor,
  isValidRefName,
  listBranches,
  listTags,
  mergeBase,
  mergedBranchNames,
  refExists,
  resolveRefName,
  setDefaultBranch,
  updateRefs,
} from "./refs";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

const tagger = { name: "Tag Ger", email: "tagger@example.com", date: new Date("2024-05-01T10:00:00Z") };

/** main: c0 → c1; feature: c0 → c2 (newest); tag v1.0 on c0. */
async function seed() {
  return importCommits(repo.path, [
    { message: "first\n", files: { "a.txt": "a\n" }, date: 1_700_000_000, tag: "v1.0" },
    { message: "second\n", files: { "b.txt": "b\n" }, date: 1_700_000_100 },
    { branch: "feature", from: 0, message: "feature work\n", files: { "c.txt": "c\n" }, date: 1_700_000_200 },
  ]);
}

describe("an empty repository", () => {
  it("has no branches, tags, default branch or commits", async () => {
    expect(await listBranches(repo.path)).toEqual({ items: [], total: 0 });
    expect(await listTags(repo.path)).toEqual({ items: [], total: 0 });
    expect(await getDefaultBranch(repo.path)).toBeNull();
    expect(await resolveCommit(repo.path, "main")).toBeNull();
    expect(await findBranch(repo.path, "main")).toBeNull();
  });
});

describe("listing branches", () => {
  it("answers each branch with its commit, by name, searched and paged", async () => {
    const [, c1, c2] = await seed();
    const all = await listBranches(repo.path);
    expect(all.total).toBe(2);
    expect(all.items.map((b) => [b.name, b.commit.id])).toEqual([
      ["feature", c2],
      ["main", c1],
    ]);
    expect(all.items[1].commit).toMatchObject({ title: "second", short_id: c1.slice(0, 8), parent_ids: [expect.any(String)] });

    expect((await listBranches(repo.path, { search: "^fea" })).items.map((b) => b.name)).toEqual(["feature"]);
    expect((await listBranches(repo.path, { search: "AIN$" })).items.map((b) => b.name)).toEqual(["main"]);
    expect((await listBranches(repo.path, { search: "^ain" })).total).toBe(0);
    const page2 = await listBranches(repo.path, { page: 2, perPage: 1 });
    expect(page2).toMatchObject({ total: 2, items: [{ name: "main" }] });
    expect((await listBranches(repo.path, { pageToken: "feature", perPage: 5 })).items.map((b) => b.name)).toEqual(["main"]);
    expect((await listBranches(repo.path, { pageToken: "main" })).items).toEqual([]);
    const updated = await listBranches(repo.path, { orderBy: "updated", sort: "desc" });
    expect(updated.items.map((b) => b.name)).toEqual(["feature", "main"]);
  });
});

describe("tags", () => {
  it("lists lightweight and annotated tags with targets, messages and dates", async () => {
    const [c0, c1] = await seed();
    const annotated = await createTag(repo.path, "v2.0", "main", { message: "Release 2", tagger });
    expect(annotated).toMatchObject({ name: "v2.0", message: "Release 2", created_at: "2024-05-01T10:00:00+00:00" });
    expect(annotated.target).not.toBe(c1);
    expect(annotated.commit?.id).toBe(c1);

    const tags = await listTags(repo.path, { orderBy: "version", sort: "desc" });
    expect(tags.items.map((t) => [t.name, t.commit?.id, t.message])).toEqual([
      ["v2.0", c1, "Release 2"],
      ["v1.0", c0, ""],
    ]);
    expect(tags.items[1].target).toBe(c0);
    expect(tags.items[1].created_at).toBeNull();
    expect((await findTag(repo.path, "v1.0"))?.commit?.id).toBe(c0);
    expect(await findTag(repo.path, "v1")).toBeNull();
  });

  it("refuses a duplicate, an invalid name or an unknown target, and deletes", async () => {
    await seed();
    await expect(createTag(repo.path, "v1.0", "main")).rejects.toThrow("Tag v1.0 already exists");
    await expect(createTag(repo.path, "bad..name", "main")).rejects.toThrow("Tag name invalid");
    await expect(createTag(repo.path, "v3", "nope")).rejects.toThrow("Target nope is invalid");
    expect(await deleteTag(repo.path, "v1.0")).toBe(true);
    expect(await deleteTag(repo.path, "v1.0")).toBe(false);
  });
});

describe("resolving and changing refs", () => {
  it("resolves a branch before a tag of the same name, shas and short shas", async () => {
    const [c0, c1] = await seed();
    await updateRefs(repo.path, [{ ref: "refs/tags/main", newId: c0 }]);
    expect(await resolveCommit(repo.path, "main")).toBe(c1);
    expect(await resolveCommit(repo.path, "v1.0")).toBe(c0);
    expect(await resolveCommit(repo.path, c0.slice(0, 7))).toBe(c0);
    expect(await resolveCommit(repo.path, c0)).toBe(c0);
    expect(await resolveCommit(repo.path, "nothing")).toBeNull();
  });

  it("creates and deletes branches with GitLab's errors", async () => {
    const [c0] = await seed();
    expect(await createBranch(repo.path, "fonctionnalité/été", "v1.0")).toMatchObject({ name: "fonctionnalité/été", commit: { id: c0 } });
    await expect(createBranch(repo.path, "main", "feature")).rejects.toThrow("Branch already exists");
    await expect(createBranch(repo.path, "x", "nope")).rejects.toThrow("Invalid reference name: nope");
    for (const bad of ["a..b", "HEAD", "refs/heads/x", "with space", "end.lock", c0]) {
      await expect(createBranch(repo.path, bad, "main")).rejects.toThrow("Branch name is invalid");
    }
    expect(await refExists(repo.path, "refs/heads/fonctionnalité/été")).toBe(true);
    expect(await deleteBranch(repo.path, "fonctionnalité/été")).toBe(true);
    expect(await deleteBranch(repo.path, "fonctionnalité/été")).toBe(false);
  });

  it("moves a ref only from the value the caller read", async () => {
    const [c0, c1] = await seed();
    const stale = updateRefs(repo.path, [{ ref: "refs/heads/main", newId: c0, oldId: c0 }]);
    await expect(stale).rejects.toMatchObject({ kind: "stale" });
    await expect(updateRefs(repo.path, [{ ref: "refs/heads/new", newId: c0, oldId: c1 }])).rejects.toBeInstanceOf(RepositoryError);
    // all or nothing: the second update fails, the first does not happen
    await expect(
      updateRefs(repo.path, [
        { ref: "refs/heads/other", newId: c0, oldId: ZERO_ID },
        { ref: "refs/heads/main", newId: c0, oldId: c0 },
      ]),
    ).rejects.toMatchObject({ kind: "stale" });
    expect(await refExists(repo.path, "refs/heads/other")).toBe(false);
    await expect(deleteBranch(repo.path, "main", c0)).rejects.toMatchObject({ kind: "stale" });
    expect(await resolveCommit(repo.path, "main")).toBe(c1);
  });

  it("never lets a hostile name act as an option", async () => {
    const [c0] = await seed();
    const hostile = "--upload-pack=touch /tmp/pwned";
    expect(await isValidRefName(repo.path, hostile)).toBe(false);
    expect(await isValidRefName(repo.path, "-x")).toBe(false);
    await expect(createBranch(repo.path, hostile, "main")).rejects.toThrow("Branch name is invalid");
    await expect(createBranch(repo.path, "ok", hostile)).rejects.toThrow("Invalid reference name");
    expect(await resolveCommit(repo.path, hostile)).toBeNull();
    expect(await resolveCommit(repo.path, "--all")).toBeNull();
    expect(await findBranch(repo.path, "--all")).toBeNull();
    // A branch a push may have made with a leading dash is still readable and deletable.
    await updateRefs(repo.path, [{ ref: "refs/heads/-dash", newId: c0 }]);
    expect((await findBranch(repo.path, "-dash"))?.commit.id).toBe(c0);
    expect(await resolveCommit(repo.path, "-dash")).toBe(c0);
    expect(await deleteBranch(repo.path, "-dash")).toBe(true);
  });
});

describe("default branch and ancestry", () => {
  it("reads and sets HEAD, falling back when HEAD's branch does not exist", async () => {
    await seed();
    expect(await getDefaultBranch(repo.path)).toBe("main");
    await setDefaultBranch(repo.path, "feature");
    expect(await getDefaultBranch(repo.path)).toBe("feature");
    expect((await gitText(repo.path, ["symbolic-ref", "HEAD"])).trim()).toBe("refs/heads/feature");
    await expect(setDefaultBranch(repo.path, "nope")).rejects.toThrow("Invalid reference name");
    await deleteBranch(repo.path, "feature");
    expect(await getDefaultBranch(repo.path)).toBe("main");
  });

  it("answers ancestry, merge bases and merged branches", async () => {
    const [c0, c1, c2] = await seed();
    expect(await isAncestor(repo.path, c0, c1)).toBe(true);
    expect(await isAncestor(repo.path, c2, c1)).toBe(false);
    expect(await mergeBase(repo.path, c1, c2)).toBe(c0);
    await createBranch(repo.path, "old", c0);
    expect([...(await mergedBranchNames(repo.path, c1))].sort()).toEqual(["main", "old"]);
  });
});

describe("refs as other services name them", () => {
  it("resolves short and full branch and tag names, refusing a name that is both", async () => {
    const [c0, c1] = await seed();
    expect(await resolveRefName(repo.path, "main")).toEqual({ status: "ok", kind: "branch", name: "main", full_ref: "refs/heads/main", sha: c1 });
    expect(await resolveRefName(repo.path, "refs/tags/v1.0")).toEqual({ status: "ok", kind: "tag", name: "v1.0", full_ref: "refs/tags/v1.0", sha: c0 });
    expect(await resolveRefName(repo.path, "refs/heads/v1.0")).toEqual({ status: "missing" });
    expect(await resolveRefName(repo.path, c0)).toEqual({ status: "missing" });
    expect(await resolveRefName(repo.path, "refs/heads/")).toEqual({ status: "missing" });
    await createBranch(repo.path, "v1.0", "main");
    expect(await resolveRefName(repo.path, "v1.0")).toEqual({ status: "ambiguous" });
    expect(await resolveRefName(repo.path, "refs/heads/v1.0")).toMatchObject({ status: "ok", sha: c1 });
  });

  it("finds a commit by sha, short sha, tag (before a branch of its name) or branch; never a path", async () => {
    const [c0, c1, c2] = await seed();
    expect(await findCommitByRevision(repo.path, c2)).toMatchObject({ id: c2, title: "feature work", parent_ids: [c0] });
    expect((await findCommitByRevision(repo.path, c1.slice(0, 8)))?.id).toBe(c1);
    expect((await findCommitByRevision(repo.path, "feature"))?.id).toBe(c2);
    await createBranch(repo.path, "v1.0", "main");
    expect((await findCommitByRevision(repo.path, "v1.0"))?.id).toBe(c0);
    expect(await findCommitByRevision(repo.path, "main:a.txt")).toBeNull();
    expect(await findCommitByRevision(repo.path, "nothing")).toBeNull();
    expect(await findCommitByRevision(repo.path, "")).toBeNull();
  });
});

describe("orders with ties", () => {
  it("breaks ties of dates by name ascending in either direction, as git's --sort", async () => {
    await seed();
    await createTag(repo.path, "a-tag", "v1.0");
    await createTag(repo.path, "z-tag", "main");
    const order = async (sort: "asc" | "desc") => (await listTags(repo.path, { orderBy: "updated", sort })).items.map((t) => t.name);
    expect(await order("desc")).toEqual(["z-tag", "a-tag", "v1.0"]);
    expect(await order("asc")).toEqual(["a-tag", "v1.0", "z-tag"]);
  });
});
