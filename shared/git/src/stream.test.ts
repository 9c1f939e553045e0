import { tempRepository } from "./fixtures";
import { GitError } from "./run";
import { streamGit } from "./stream";

let repo: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  repo = await tempRepository();
});
afterEach(() => repo.remove());

async function drain(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const c of stream) text += c.toString();
  return text;
}

describe("streamGit", () => {
  it("streams a command's output and ends", async () => {
    expect(await drain(streamGit(repo.path, ["rev-parse", "--is-bare-repository"]))).toBe("true\n");
  });

  it("fails the stream with a GitError when git fails", async () => {
    const failing = drain(streamGit(repo.path, ["cat-file", "blob", "0".repeat(40)]));
    await expect(failing).rejects.toBeInstanceOf(GitError);
  });
});
