import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** What a git command printed, and how it ended. */
export interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The real `git` client for tests, in a temp folder of its own: no user or system configuration,
 * never a prompt (GIT_TERMINAL_PROMPT=0, no credential helper), a fixed identity.
 */
export class GitClient {
  readonly home = mkdtempSync(path.join(tmpdir(), "collab-git-client-"));

  run(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitRun> {
    return new Promise((resolve, reject) => {
      const child = spawn("git", ["-c", "credential.helper=", "-c", "init.defaultBranch=main", ...args], {
        cwd: opts.cwd ?? this.home,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: this.home,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          GIT_AUTHOR_NAME: "Test Author",
          GIT_AUTHOR_EMAIL: "author@example.com",
          GIT_COMMITTER_NAME: "Test Author",
          GIT_COMMITTER_EMAIL: "author@example.com",
          LC_ALL: "C",
          ...opts.env,
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** Like run, but throws with git's output unless it succeeded. */
  async ok(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
    const r = await this.run(args, opts);
    if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}):\n${r.stderr}`);
    return r.stdout;
  }

  /** A folder for a clone. */
  dir(name: string): string {
    return path.join(this.home, name);
  }

  cleanUp(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** The clone URL of a project at the gateway, with Basic credentials when given. */
export function cloneUrl(gatewayUrl: string, fullPath: string, credentials?: { username: string; password: string }): string {
  const url = new URL(`${gatewayUrl}/${fullPath}.git`);
  if (credentials) {
    url.username = encodeURIComponent(credentials.username);
    url.password = encodeURIComponent(credentials.password);
  }
  return url.toString();
}

let clones = 0;

/**
 * A clone of a project through the gateway to commit and push from, as a user would: tests make
 * real pushes (and so real push events) with it.
 */
export class ProjectClone {
  private files = 0;

  private constructor(
    private readonly git: GitClient,
    readonly dir: string,
  ) {}

  /** Clones the project (an empty one too) as the user (username + personal access token). */
  static async of(git: GitClient, gatewayUrl: string, fullPath: string, user: { username: string; token: string }): Promise<ProjectClone> {
    const dir = git.dir(`clone-${++clones}`);
    await git.ok(["clone", "-q", cloneUrl(gatewayUrl, fullPath, { username: user.username, password: user.token }), dir]);
    return new ProjectClone(git, dir);
  }

  /**
   * A commit of a new file on `branch` (checked out from `from` when given, else as it is here):
   * its sha. Not pushed.
   */
  async commit(branch: string, message: string, opts: { from?: string } = {}): Promise<string> {
    const current = (await this.git.ok(["branch", "--show-current"], { cwd: this.dir })).trim();
    if (opts.from) await this.git.ok(["checkout", "-q", "-B", branch, opts.from], { cwd: this.dir });
    else if (current !== branch) await this.git.ok(["checkout", "-q", "-B", branch], { cwd: this.dir });
    const file = `file-${++this.files}.txt`;
    writeFileSync(path.join(this.dir, file), `${message}\n`);
    await this.git.ok(["add", file], { cwd: this.dir });
    await this.git.ok(["commit", "-q", "-m", message], { cwd: this.dir });
    return (await this.git.ok(["rev-parse", "HEAD"], { cwd: this.dir })).trim();
  }

  /** `git push origin <args>`: what git answered (a refused push does not throw). */
  push(...args: string[]): Promise<GitRun> {
    return this.git.run(["push", "origin", ...args], { cwd: this.dir });
  }

  /** Like push, but throws with git's output unless the push went through. */
  pushOk(...args: string[]): Promise<string> {
    return this.git.ok(["push", "-q", "origin", ...args], { cwd: this.dir });
  }

  /** A git command in the clone. */
  run(args: string[]): Promise<string> {
    return this.git.ok(args, { cwd: this.dir });
  }
}
