import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { gitEnv } from "./run";

/**
 * Git's smart HTTP transport, served by the `git` CLI as `git http-backend` would run it:
 * `git upload-pack` (clone, fetch) and `git receive-pack` (push) with `--stateless-rpc`, one
 * process per HTTP request, the request body on stdin and the answer on stdout.
 */
export type GitService = "upload-pack" | "receive-pack";

/** The HTTP media types of a service's answers (git's http-backend.c). */
export const advertisementType = (service: GitService) => `application/x-git-${service}-advertisement`;
export const resultType = (service: GitService) => `application/x-git-${service}-result`;

/** One pkt-line of text (four hex digits of length, then the data). */
export function pktLine(text: string): Buffer {
  const data = Buffer.from(text, "utf8");
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, "0"), "ascii"), data]);
}

export const FLUSH_PKT = Buffer.from("0000", "ascii");

/** The `Git-Protocol` header asks for protocol v2 (`version=2`), which has no service line in its advertisement. */
export const wantsProtocolV2 = (gitProtocol: string | undefined) => /(^|:)version=2(:|$)/.test(gitProtocol ?? "");

/**
 * What precedes the refs in a v0/v1 `info/refs` answer: `# service=git-<service>` and a flush;
 * nothing for protocol v2 (git-http-backend does the same).
 */
export function advertisementPreamble(service: GitService, gitProtocol: string | undefined): Buffer {
  return wantsProtocolV2(gitProtocol) ? Buffer.alloc(0) : Buffer.concat([pktLine(`# service=git-${service}\n`), FLUSH_PKT]);
}

export interface ServiceOptions {
  /** `info/refs`: only the advertisement. */
  advertiseRefs?: boolean;
  /** The client's `Git-Protocol` header, passed on as GIT_PROTOCOL (protocol v2). */
  gitProtocol?: string;
  /** `-c key=value` settings for this run (hooks path, upload-pack options). */
  config?: Record<string, string>;
  /** More environment (the hooks' callback address). */
  env?: Record<string, string>;
}

export type GitServiceProcess = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Starts `git <service> --stateless-rpc` on the bare repository `repoDir`. The caller pipes the
 * request into stdin and stdout to the client; stderr carries git's own complaints (never the
 * client's data), for logs.
 */
export function spawnGitService(service: GitService, repoDir: string, opts: ServiceOptions = {}): GitServiceProcess {
  const config = Object.entries(opts.config ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
  const args = [...config, service, "--stateless-rpc", ...(opts.advertiseRefs ? ["--advertise-refs"] : []), repoDir];
  const env = { ...opts.env, ...(opts.gitProtocol ? { GIT_PROTOCOL: opts.gitProtocol } : {}) };
  return spawn("git", args, { cwd: repoDir, env: gitEnv(env), stdio: ["pipe", "pipe", "pipe"] });
}
