import { spawn } from "node:child_process";

/** A failed `git` command: its exit code and what it wrote to stderr (never logged with the caller's input). */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ""} exited with ${code}: ${stderr.trim().split("\n").slice(-1)[0] ?? ""}`);
    this.name = "GitError";
  }
}

export interface RunOptions {
  /** Written to the command's stdin, then closed. */
  input?: string | Buffer;
  /** Extra environment (GIT_INDEX_FILE, GIT_AUTHOR_*, …) on top of the isolated one. */
  env?: Record<string, string>;
  /** Killed after this long (default 60 s). */
  timeoutMs?: number;
  /** Exit codes that are answers, not failures (e.g. 1 for `merge-base --is-ancestor`). */
  okCodes?: number[];
}

/**
 * The environment every git command runs in: no user or system configuration, no prompts, no pager,
 * a fixed locale, so that output is the same on every machine and nothing asks a terminal.
 */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    ...extra,
  };
}

/** Runs `git <args>` in `cwd` (a bare repository's directory) and answers its stdout. */
export function runGit(cwd: string, args: readonly string[], opts: RunOptions = {}): Promise<{ stdout: Buffer; code: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args as string[], { cwd, env: gitEnv(opts.env), stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0 || (code !== null && opts.okCodes?.includes(code))) resolve({ stdout: Buffer.concat(out), code });
      else reject(new GitError(args, code, Buffer.concat(err).toString("utf8")));
    });
    child.stdin.on("error", () => {}); // git may exit before reading all of stdin
    child.stdin.end(opts.input ?? "");
  });
}

/** `runGit` answering its stdout as text. */
export async function gitText(cwd: string, args: readonly string[], opts?: RunOptions): Promise<string> {
  return (await runGit(cwd, args, opts)).stdout.toString("utf8");
}
