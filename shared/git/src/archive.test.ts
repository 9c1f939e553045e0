import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Readable } from "node:stream";
import { importCommits, tempRepository } from "./fixtures";
import { archive, archiveName } from "./archive";

let repo: { path: string; remove: () => Promise<void> };
let scratch: string;
beforeEach(async () => {
  repo = await tempRepository();
  scratch = await mkdtemp(join(tmpdir(), "archive-test-"));
});
afterEach(async () => {
  await repo.remove();
  await rm(scratch, { recursive: true, force: true });
});

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The entry names an archive holds, listed by the system's tar/unzip-free reader (tar reads all three). */
async function entries(data: Buffer, flag: string): Promise<string[]> {
  const file = join(scratch, "a");
  await writeFile(file, data);
  const { stdout } = await promisify(execFile)("tar", [flag, file]);
  return stdout.split("\n").filter(Boolean).sort();
}

describe("archive", () => {
  it("streams tar.gz, tar and tar.bz2 under GitLab's prefix", async () => {
    const [id] = await importCommits(repo.path, [{ message: "m", files: { "README.md": "r", "src/é.ts": "x" } }]);
    const name = `proj-feature-x-${id}`;
    const gz = await archive(repo.path, { ref: "main", project: "proj", format: "tar.gz" });
    expect(gz).toMatchObject({ filename: `proj-main-${id}.tar.gz`, contentType: "application/gzip", commitId: id });
    expect(await entries(await collect(gz!.stream), "-tzf")).toEqual([`proj-main-${id}/`, `proj-main-${id}/README.md`, `proj-main-${id}/src/`, `proj-main-${id}/src/é.ts`]);
    expect(archiveName("proj", "feature/x", id)).toBe(name);
    const tar = await archive(repo.path, { ref: id, project: "proj", format: "tar" });
    expect((await entries(await collect(tar!.stream), "-tf")).length).toBe(4);
    const bz = await archive(repo.path, { ref: "main", project: "proj", format: "tbz2" });
    expect(bz?.filename.endsWith(".tar.bz2")).toBe(true);
    expect(await entries(await collect(bz!.stream), "-tjf")).toContain(`proj-main-${id}/README.md`);
  });

  it("makes zip archives and archives of one path", async () => {
    const [id] = await importCommits(repo.path, [{ message: "m", files: { "README.md": "r", "src/a.ts": "a", "src/b/c.ts": "c" } }]);
    const zip = await archive(repo.path, { ref: "main", project: "p", format: "zip" });
    expect((await collect(zip!.stream)).subarray(0, 2).toString()).toBe("PK");
    const sub = await archive(repo.path, { ref: "main", project: "p", path: "src/b" });
    expect(sub?.filename).toBe(`p-main-${id}-src-b.tar.gz`);
    expect(await entries(await collect(sub!.stream), "-tzf")).toEqual([`p-main-${id}-src-b/`, `p-main-${id}-src-b/src/`, `p-main-${id}-src-b/src/b/`, `p-main-${id}-src-b/src/b/c.ts`]);
  });

  it("answers null for an unknown ref, path or format", async () => {
    expect(await archive(repo.path, { ref: "main", project: "p" })).toBeNull();
    await importCommits(repo.path, [{ message: "m", files: { a: "a" } }]);
    expect(await archive(repo.path, { ref: "nope", project: "p" })).toBeNull();
    expect(await archive(repo.path, { ref: "main", project: "p", path: "missing" })).toBeNull();
    expect(await archive(repo.path, { ref: "main", project: "p", path: "../x" })).toBeNull();
    expect(await archive(repo.path, { ref: "main", project: "p", format: "rar" })).toBeNull();
    expect(await archive(repo.path, { ref: "main", project: "p", format: "constructor" })).toBeNull();
    expect(await archive(repo.path, { ref: "--remote=x", project: "p" })).toBeNull();
  });
});
