import { importCommits, tempRepository } from "./fixtures";
import { blame } from "./blame";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

describe("blame", () => {
  it("groups consecutive lines by the commit that last changed them", async () => {
    const [c0, c1] = await importCommits(repo.path, [
      { message: "first", files: { "f é.txt": "one\ntwo\nthree\nfour\n" }, author: { name: "Ann", email: "ann@example.com" } },
      { message: "second\n\nbody", files: { "f é.txt": "one\nTWO\nthree\nfour\n" } },
    ]);
    const ranges = await blame(repo.path, "main", "f é.txt");
    expect(ranges?.map((r) => [r.commit.id, r.lines])).toEqual([
      [c0, ["one"]],
      [c1, ["TWO"]],
      [c0, ["three", "four"]],
    ]);
    expect(ranges?.[0].commit).toMatchObject({ author_name: "Ann", author_email: "ann@example.com", message: "first", parent_ids: [] });
    expect(ranges?.[1].commit).toMatchObject({ message: "second\n\nbody", parent_ids: [c0] });
    const part = await blame(repo.path, "main", "f é.txt", { start: 2, end: 3 });
    expect(part?.map((r) => r.lines)).toEqual([["TWO"], ["three"]]);
    await expect(blame(repo.path, "main", "f é.txt", { start: 3, end: 2 })).rejects.toMatchObject({ kind: "invalid" });
    await expect(blame(repo.path, "main", "f é.txt", { start: 9, end: 12 })).rejects.toMatchObject({ kind: "invalid" });
  });

  it("answers null for a missing ref or file, and for an empty repository", async () => {
    expect(await blame(repo.path, "main", "a")).toBeNull();
    await importCommits(repo.path, [{ message: "m", files: { a: "a\n" } }]);
    expect(await blame(repo.path, "nope", "a")).toBeNull();
    expect(await blame(repo.path, "main", "b")).toBeNull();
    expect(await blame(repo.path, "main", "--incremental")).toBeNull();
  });
});
