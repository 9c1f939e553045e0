import { createHash } from "node:crypto";
import { importCommits, tempRepository } from "./fixtures";
import { getBlob, getFile, getRawFile, openBlob, rawBlob, streamBlob } from "./blob";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0xfe]);

async function seed() {
  return importCommits(repo.path, [
    { message: "add", files: { "docs/été.md": "bonjour\n", "logo.png": binary, "bin/run": "#!/bin/sh\n" }, executable: ["bin/run"] },
    { message: "other", files: { "other.txt": "o" } },
  ]);
}

describe("getFile", () => {
  it("answers a file as GitLab's files API does", async () => {
    const [c0, c1] = await seed();
    const file = await getFile(repo.path, "main", "docs/été.md");
    expect(file).toEqual({
      file_name: "été.md",
      file_path: "docs/été.md",
      size: 8,
      encoding: "base64",
      content: Buffer.from("bonjour\n").toString("base64"),
      content_sha256: createHash("sha256").update("bonjour\n").digest("hex"),
      ref: "main",
      blob_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      commit_id: c1,
      last_commit_id: c0,
      execute_filemode: false,
    });
    expect((await getFile(repo.path, c0, "bin/run"))?.execute_filemode).toBe(true);
  });

  it("keeps binary content byte for byte", async () => {
    await seed();
    const raw = await getRawFile(repo.path, "main", "logo.png");
    expect(raw?.content.equals(binary)).toBe(true);
    expect(Buffer.from((await getFile(repo.path, "main", "logo.png"))!.content, "base64").equals(binary)).toBe(true);
  });

  it("answers null for missing refs, files, directories and hostile paths", async () => {
    expect(await getFile(repo.path, "main", "x")).toBeNull();
    await seed();
    expect(await getFile(repo.path, "nope", "logo.png")).toBeNull();
    expect(await getFile(repo.path, "main", "missing.txt")).toBeNull();
    expect(await getFile(repo.path, "main", "docs")).toBeNull();
    expect(await getFile(repo.path, "main", "")).toBeNull();
    expect(await getFile(repo.path, "main", "../logo.png")).toBeNull();
    expect(await getFile(repo.path, "main", "--output=/tmp/x")).toBeNull();
  });
});

describe("blobs by id", () => {
  it("reads a blob by full or short id, never a tree", async () => {
    await seed();
    const file = (await getFile(repo.path, "main", "logo.png"))!;
    expect(await getBlob(repo.path, file.blob_id)).toEqual({ sha: file.blob_id, size: binary.length, encoding: "base64", content: binary.toString("base64") });
    expect((await rawBlob(repo.path, file.blob_id.slice(0, 10)))?.content.equals(binary)).toBe(true);
    const tree = (await getFile(repo.path, "main", "docs/été.md"))!;
    expect(await rawBlob(repo.path, "main")).toBeNull();
    expect(await rawBlob(repo.path, "0000000000")).toBeNull();
    expect((await rawBlob(repo.path, tree.blob_id))?.content.toString()).toBe("bonjour\n");
    const streamed = await streamBlob(repo.path, file.blob_id);
    const chunks: Buffer[] = [];
    for await (const c of streamed!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(binary)).toBe(true);
    expect(streamed?.size).toBe(binary.length);
    expect(await streamBlob(repo.path, "main")).toBeNull();
  });
});

describe("openBlob", () => {
  const read = async (s: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  it("streams every byte of a blob and tells text from binary, as git does", async () => {
    await seed();
    const text = (await getFile(repo.path, "main", "docs/été.md"))!;
    const png = (await getFile(repo.path, "main", "logo.png"))!;
    const opened = await openBlob(repo.path, text.blob_id);
    expect(opened).toMatchObject({ id: text.blob_id, size: 8, binary: false });
    expect((await read(opened!.stream)).toString()).toBe("bonjour\n");
    const bin = await openBlob(repo.path, png.blob_id);
    expect(bin?.binary).toBe(true);
    expect(await read(bin!.stream)).toEqual(binary);
    expect(await openBlob(repo.path, "0123abcd")).toBeNull();
  });

  it("opens an empty blob as an empty stream", async () => {
    await importCommits(repo.path, [{ message: "empty", files: { "empty.txt": "" } }]);
    const empty = (await getFile(repo.path, "main", "empty.txt"))!;
    const opened = await openBlob(repo.path, empty.blob_id);
    expect(opened).toMatchObject({ size: 0, binary: false });
    expect((await read(opened!.stream)).length).toBe(0);
  });
});
