import { spawn } from "node:child_process";
import { PassThrough, type Readable } from "node:stream";
import { GitError, gitEnv } from "./run";

/**
 * Runs git with its stdout as a stream (runGit buffers whole outputs): a failure after the start
 * destroys the stream with the GitError; a consumer that stops early ends git.
 */
export function streamGit(cwd: string, args: string[], env: Record<string, string> = {}): Readable {
  const child = spawn("git", args, { cwd, env: gitEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  const out = new PassThrough();
  const err: Buffer[] = [];
  child.stderr.on("data", (b: Buffer) => err.push(b));
  child.stdout.pipe(out, { end: false });
  child.on("error", (e) => out.destroy(e));
  child.on("close", (code) => {
    if (code === 0) out.end();
    else out.destroy(new GitError(args, code, Buffer.concat(err).toString("utf8")));
  });
  out.on("close", () => {
    if (child.exitCode === null) child.kill();
  });
  return out;
}
