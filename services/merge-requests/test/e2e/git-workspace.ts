import { cloneUrl, type GitClient } from "@collab/testing";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A clone of a project through the gateway, for tests that put real commits behind merge
 * requests: each commit is made on a branch started from the remote's branch and pushed at once.
 */
export class Workspace {
  private constructor(
    private readonly git: GitClient,
    readonly dir: string,
  ) {}

  static async clone(git: GitClient, gatewayUrl: string, fullPath: string, user: { username: string; token: string }, name: string): Promise<Workspace> {
    const dir = git.dir(name);
    await git.ok(["clone", "-q", cloneUrl(gatewayUrl, fullPath, { username: user.username, password: user.token }), dir]);
    return new Workspace(git, dir);
  }

  run(args: string[]) {
    return this.git.run(args, { cwd: this.dir });
  }

  ok(args: string[]) {
    return this.git.ok(args, { cwd: this.dir });
  }

  /** The commit a ref names here (after a fetch for remote refs). */
  async rev(ref: string): Promise<string> {
    return (await this.ok(["rev-parse", ref])).trim();
  }

  /**
   * Commits `files` (null: deleted) on `branch`, started from the remote's `from` (default: the
   * remote's `branch`), and pushes it; answers the new commit's sha.
   */
  async commit(branch: string, files: Record<string, string | null>, message: string, from = branch): Promise<string> {
    await this.ok(["fetch", "-q", "origin"]);
    await this.ok(["checkout", "-q", "-B", branch, `origin/${from}`]);
    for (const [file, content] of Object.entries(files)) {
      const at = path.join(this.dir, file);
      if (content === null) rmSync(at);
      else {
        mkdirSync(path.dirname(at), { recursive: true });
        writeFileSync(at, content);
      }
    }
    await this.ok(["add", "-A"]);
    await this.ok(["commit", "-q", "-m", message]);
    await this.ok(["push", "-q", "origin", `HEAD:refs/heads/${branch}`]);
    return this.rev("HEAD");
  }
}
