import { access, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitText } from "./run";
import { importCommits, initBareRepository, tempRepository } from "./fixtures";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { bundleRepository, copyRepository, refState, removeRepository, restoreBundle, verifyAgainst, verifyCopy } from "./copy";
import { createTag, deleteBranch, setDefaultBranch } from "./refs";

let repo: { path: string; remove: () => Promise<void> };
let storage: string;
beforeEach(async () => {
  repo = await tempRepository();
  storage = await mkdtemp(join(tmpdir(), "copy-test-"));
});
afterEach(async () => {
  await repo.remove();
  await rm(storage, { recursive: true, force: true });
});

const exists = (p: string) => access(p).then(() => true, () => false);

describe("copyRepository", () => {
  it("copies every ref, tag and HEAD, verifies, and removes the source", async () => {
    await importCommits(repo.path, [
      { message: "a", files: { a: "a" } },
      { branch: "dev", from: 0, message: "b", files: { b: "b" } },
    ]);
    await createTag(repo.path, "v1", "main", { message: "release", tagger: { name: "T", email: "t@example.com" } });
    await setDefaultBranch(repo.path, "dev");
    const dest = join(storage, "@hashed", "ab", "cd", "repo.git");
    await copyRepository(repo.path, dest);
    expect(await verifyCopy(repo.path, dest)).toEqual({ ok: true, problems: [] });
    expect((await gitText(dest, ["symbolic-ref", "HEAD"])).trim()).toBe("refs/heads/dev");
    expect(await gitText(dest, ["config", "--get-regexp", "^remote\\."], { okCodes: [1] })).toBe("");
    await removeRepository(repo.path);
    expect(await exists(repo.path)).toBe(false);
    await removeRepository(repo.path); // idempotent
  });

  it("reports a copy that differs", async () => {
    await importCommits(repo.path, [
      { message: "a", files: { a: "a" } },
      { branch: "dev", message: "b", files: { b: "b" } },
    ]);
    const dest = join(storage, "copy.git");
    await copyRepository(repo.path, dest);
    await deleteBranch(dest, "dev");
    expect(await verifyCopy(repo.path, dest)).toEqual({ ok: false, problems: ["ref refs/heads/dev differs"] });
  });

  it("copies an empty repository and leaves nothing behind when the copy fails", async () => {
    const dest = join(storage, "empty.git");
    await copyRepository(repo.path, dest);
    expect((await verifyCopy(repo.path, dest)).ok).toBe(true);
    await expect(copyRepository(join(storage, "missing.git"), join(storage, "x.git"))).rejects.toThrow();
    expect(await exists(join(storage, "x.git"))).toBe(false);
    await initBareRepository(join(storage, "taken.git"));
    await expect(copyRepository(repo.path, join(storage, "taken.git"))).rejects.toThrow();
  });

  it("refuses to remove a directory that is no repository", async () => {
    const plain = join(storage, "plain");
    await mkdir(plain);
    await expect(removeRepository(plain)).rejects.toThrow("not a bare repository");
    expect(await exists(plain)).toBe(true);
  });
});

describe("bundleRepository and restoreBundle", () => {
  it("carry every ref, tag and HEAD through one stream; the copy verifies against the source's ref state", async () => {
    await importCommits(repo.path, [
      { message: "a", files: { a: "a" } },
      { branch: "dev", from: 0, message: "b", files: { b: "b" } },
    ]);
    await createTag(repo.path, "v1", "main", { message: "release", tagger: { name: "T", email: "t@example.com" } });
    await setDefaultBranch(repo.path, "dev");
    const file = join(storage, "repo.bundle");
    await pipeline((await bundleRepository(repo.path))!, createWriteStream(file));
    const dest = join(storage, "copy.git");
    const state = await refState(repo.path);
    await restoreBundle(file, dest, state.head);
    expect(await verifyAgainst(state, dest)).toEqual({ ok: true, problems: [] });
    expect((await gitText(dest, ["symbolic-ref", "HEAD"])).trim()).toBe("refs/heads/dev");
    expect(await gitText(dest, ["config", "--get-regexp", "^remote\\."], { okCodes: [1] })).toBe("");
  });

  it("copy a repository without refs as an empty one with the same HEAD", async () => {
    await gitText(repo.path, ["symbolic-ref", "HEAD", "refs/heads/trunk"]);
    expect(await bundleRepository(repo.path)).toBeNull();
    const dest = join(storage, "empty.git");
    const state = await refState(repo.path);
    await restoreBundle(null, dest, state.head);
    expect(await verifyAgainst(state, dest)).toEqual({ ok: true, problems: [] });
    expect((await gitText(dest, ["symbolic-ref", "HEAD"])).trim()).toBe("refs/heads/trunk");
  });
});
