import { importCommits, tempRepository } from "./fixtures";
import { listTree } from "./tree";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

async function seed() {
  return importCommits(repo.path, [
    {
      message: "files",
      files: { "README.md": "r", "src/app.ts": "a", "src/lib/util.ts": "u", "ünï/ファイル.txt": "f", "run.sh": "#!/bin/sh" },
      executable: ["run.sh"],
    },
  ]);
}

describe("listTree", () => {
  it("lists a directory at a ref, trees first, with GitLab's modes", async () => {
    await seed();
    const root = await listTree(repo.path, "main");
    expect(root?.entries.map((e) => [e.type, e.path, e.mode])).toEqual([
      ["tree", "src", "040000"],
      ["tree", "ünï", "040000"],
      ["blob", "README.md", "100644"],
      ["blob", "run.sh", "100755"],
    ]);
    expect(root?.entries[0].id).toMatch(/^[0-9a-f]{40}$/);
    const src = await listTree(repo.path, "main", { path: "/src/" });
    expect(src?.entries.map((e) => [e.name, e.path])).toEqual([
      ["lib", "src/lib"],
      ["app.ts", "src/app.ts"],
    ]);
  });

  it("lists recursively and pages", async () => {
    await seed();
    const all = await listTree(repo.path, "main", { recursive: true, perPage: 100 });
    expect(all?.total).toBe(8);
    expect(all?.entries.filter((e) => e.type === "blob").map((e) => e.path)).toContain("src/lib/util.ts");
    const page = await listTree(repo.path, "main", { recursive: true, perPage: 3, page: 3 });
    expect(page).toMatchObject({ total: 8, hasNext: false });
    expect(page?.entries).toHaveLength(2);
    expect((await listTree(repo.path, "main", { recursive: true, perPage: 3 }))?.hasNext).toBe(true);
  });

  it("pages by keyset: after the entry a page_token names, refusing an unknown one", async () => {
    await seed();
    const first = await listTree(repo.path, "main", { recursive: true, perPage: 3 });
    const next = await listTree(repo.path, "main", { recursive: true, perPage: 3, after: first!.entries[2].path });
    const all = await listTree(repo.path, "main", { recursive: true, perPage: 100 });
    expect(next?.entries.map((e) => e.path)).toEqual(all!.entries.slice(3, 6).map((e) => e.path));
    expect(next?.hasNext).toBe(true);
    await expect(listTree(repo.path, "main", { after: "nowhere" })).rejects.toMatchObject({ kind: "invalid" });
  });

  it("answers null for an unknown ref, a missing path, a file path or an empty repository", async () => {
    expect(await listTree(repo.path, "main")).toBeNull();
    await seed();
    expect(await listTree(repo.path, "nope")).toBeNull();
    expect(await listTree(repo.path, "main", { path: "missing" })).toBeNull();
    expect(await listTree(repo.path, "main", { path: "README.md" })).toBeNull();
    expect(await listTree(repo.path, "main", { path: "../.." })).toBeNull();
    expect(await listTree(repo.path, "--output=x")).toBeNull();
  });
});
