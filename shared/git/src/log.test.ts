import { generateHistory, importCommits, tempRepository } from "./fixtures";
import { commitRefs, contributors, countCommits, getCommit, listCommits } from "./log";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

describe("listCommits", () => {
  it("pages a long history newest first, knowing the next page without counting", async () => {
    const tip = await generateHistory(repo.path, { commits: 120 });
    const first = await listCommits(repo.path, { perPage: 50 });
    expect(first?.commits).toHaveLength(50);
    expect(first?.commits[0]).toMatchObject({ id: tip, title: "Change 119", message: "Change 119\n\nGenerated commit number 119.\n" });
    expect(first?.hasNext).toBe(true);
    const last = await listCommits(repo.path, { perPage: 50, page: 3 });
    expect(last?.commits.map((c) => c.title)[19]).toBe("Change 0");
    expect(last).toMatchObject({ hasNext: false });
    expect(await countCommits(repo.path, {})).toBe(120);
  });

  it("filters by ref, path, author, dates, first parent and all refs", async () => {
    const alice = { name: "Alice", email: "alice@example.com" };
    const bob = { name: "Bob", email: "bob@example.com" };
    const ids = await importCommits(repo.path, [
      { message: "one", files: { "a.txt": "1", ":(glob)*": "magic" }, author: alice, date: 1_700_000_000 },
      { branch: "topic", from: 0, message: "topic", files: { "t.txt": "t" }, author: bob, date: 1_700_100_000 },
      { message: "two", files: { "a.txt": "2" }, author: bob, date: 1_700_200_000 },
      { message: "merge topic", merge: [1], author: alice, date: 1_700_300_000 },
    ]);
    const titles = async (o: Parameters<typeof listCommits>[1]) => (await listCommits(repo.path, o))?.commits.map((c) => c.title);
    expect(await titles({})).toEqual(["merge topic", "two", "topic", "one"]);
    expect(await titles({ ref: "topic" })).toEqual(["topic", "one"]);
    expect(await titles({ ref: ids[0] })).toEqual(["one"]);
    expect(await titles({ path: "a.txt" })).toEqual(["two", "one"]);
    // paths are literal: pathspec magic in a file name is just a name
    expect(await titles({ path: ":(glob)*" })).toEqual(["one"]);
    expect(await titles({ author: "Bob" })).toEqual(["two", "topic"]);
    expect(await titles({ author: "alice@example" })).toEqual(["merge topic", "one"]);
    expect(await titles({ since: "2023-11-15T00:00:00Z", until: new Date(1_700_250_000_000) })).toEqual(["two", "topic"]);
    expect(await titles({ firstParent: true })).toEqual(["merge topic", "two", "one"]);
    expect(await titles({ order: "topo" })).toHaveLength(4);
    expect(await titles({ all: true, perPage: 2 })).toEqual(["merge topic", "two"]);
    expect(await countCommits(repo.path, { path: "a.txt" })).toBe(2);
    // a merge request's commits: on the source, not on the target
    expect(await titles({ ref: "main", notIn: "topic" })).toEqual(["merge topic", "two"]);
    expect(await titles({ ref: "topic", notIn: ids[0] })).toEqual(["topic"]);
    expect(await listCommits(repo.path, { notIn: "nope" })).toBeNull();
    await expect(listCommits(repo.path, { author: "[" })).rejects.toMatchObject({ kind: "invalid", message: "author is invalid" });
    await expect(listCommits(repo.path, { author: "\u001b[31mred\u001b[0mfuzz" })).rejects.toMatchObject({ kind: "invalid", message: "author is invalid" });
    expect((await listCommits(repo.path, { ref: ids[3] }))?.commits[0].parent_ids).toEqual([ids[2], ids[1]]);
  });

  it("answers null for an unknown ref or an empty repository, and keeps hostile text out of options", async () => {
    expect(await listCommits(repo.path, {})).toBeNull();
    expect(await listCommits(repo.path, { all: true })).toEqual({ commits: [], hasNext: false });
    await importCommits(repo.path, [{ message: "only", files: { "--output=x": "x" } }]);
    expect(await listCommits(repo.path, { ref: "--output=/tmp/x" })).toBeNull();
    expect((await listCommits(repo.path, { path: "--output=x" }))?.commits).toHaveLength(1);
    expect((await listCommits(repo.path, { author: "--all" }))?.commits).toHaveLength(0);
    await expect(listCommits(repo.path, { since: "not a date" })).rejects.toThrow("since is not a date");
  });
});

describe("getCommit", () => {
  it("answers one commit with GitLab's fields, trailers and stats", async () => {
    const message = "Fix the thing\n\nLonger body.\n\nSigned-off-by: Alice <alice@example.com>\nSigned-off-by: Bob <bob@example.com>\nChangelog: fixed\n";
    const [, id] = await importCommits(repo.path, [
      { message: "base", files: { "a.txt": "1\n2\n3\n", "bin.dat": Buffer.from([0, 1, 2]) } },
      { message, files: { "a.txt": "1\nchanged\n3\nadded\n", "bin.dat": Buffer.from([0, 9, 9]) }, date: 1_700_000_500, author: { name: "Zoë", email: "zoe@example.com" } },
    ]);
    const c = await getCommit(repo.path, "main");
    expect(c).toMatchObject({
      id,
      short_id: id.slice(0, 8),
      title: "Fix the thing",
      message,
      author_name: "Zoë",
      author_email: "zoe@example.com",
      authored_date: "2023-11-14T22:21:40+00:00",
      committed_date: "2023-11-14T22:21:40+00:00",
      created_at: "2023-11-14T22:21:40+00:00",
      trailers: { "Signed-off-by": "Bob <bob@example.com>", Changelog: "fixed" },
      extended_trailers: { "Signed-off-by": ["Alice <alice@example.com>", "Bob <bob@example.com>"], Changelog: ["fixed"] },
      stats: { additions: 2, deletions: 1, total: 3 },
    });
    expect((await getCommit(repo.path, `${id}~1`))?.stats).toEqual({ additions: 3, deletions: 0, total: 3 });
    expect(await getCommit(repo.path, "nope")).toBeNull();
  });

  it("lists the branches and tags containing a commit", async () => {
    const [c0, c1] = await importCommits(repo.path, [
      { message: "a", files: { a: "a" }, tag: "v1" },
      { branch: "other", from: 0, message: "b", files: { b: "b" } },
    ]);
    expect(await commitRefs(repo.path, c0)).toEqual([
      { type: "branch", name: "main" },
      { type: "branch", name: "other" },
      { type: "tag", name: "v1" },
    ]);
    expect(await commitRefs(repo.path, c0, "tag")).toEqual([{ type: "tag", name: "v1" }]);
    expect(await commitRefs(repo.path, c1, "all")).toEqual([{ type: "branch", name: "other" }]);
  });
});

describe("generateHistory", () => {
  it("builds thousands of commits quickly", async () => {
    const started = Date.now();
    await generateHistory(repo.path, { commits: 3000 });
    expect(await countCommits(repo.path)).toBe(3000);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("contributors", () => {
  it("groups a ref's authors by email (merges left out), with GitLab's orders", async () => {
    const alice = { name: "Alice", email: "alice@example.com" };
    const bob = { name: "Bob", email: "bob@example.com" };
    await importCommits(repo.path, [
      { message: "a1", files: { "a.txt": "1" }, author: alice },
      { message: "b1", files: { "b.txt": "1" }, author: bob },
      { message: "a2", files: { "a.txt": "2" }, author: { ...alice, name: "Alice L." } },
      { branch: "side", from: 0, message: "s", files: { "s.txt": "s" }, author: bob },
      { message: "merge", merge: [3], author: bob },
      { message: "b2", files: { "b.txt": "2" }, author: bob },
    ]);
    expect(await contributors(repo.path, { ref: "main" })).toEqual([
      { name: "Alice L.", email: "alice@example.com", commits: 2, additions: 0, deletions: 0 },
      { name: "Bob", email: "bob@example.com", commits: 3, additions: 0, deletions: 0 },
    ]);
    expect((await contributors(repo.path, { orderBy: "name", sort: "desc" }))?.map((c) => c.name)).toEqual(["Bob", "Alice L."]);
    expect((await contributors(repo.path, { orderBy: "email" }))?.map((c) => c.email)).toEqual(["alice@example.com", "bob@example.com"]);
    expect(await contributors(repo.path, { ref: "nope" })).toBeNull();
  });
});
