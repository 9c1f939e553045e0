import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Server-side hooks of pushes. `git receive-pack` runs `pre-receive` once it has received and
 * indexed the pushed objects (kept in a quarantine folder until the hook accepts) and before any
 * ref moves; a non-zero exit rejects every ref of the push, and what the hook writes to stderr
 * reaches the client on its side channel (`remote: …`). The hook written here decides nothing
 * itself: it hands the ref updates to the process that started receive-pack, over the Unix
 * socket named by COLLAB_HOOK_SOCKET, and prints that process's answer.
 */

/** One ref update as `pre-receive` reads it on stdin: `<old sha> <new sha> <ref>`. */
export interface PushedRef {
  oldSha: string;
  newSha: string;
  ref: string;
}

/** What the hook sends (one JSON line): the push's id, its updates and where its objects wait. */
export interface HookRequest {
  push: string;
  updates: PushedRef[];
  /** GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES of the hook: the quarantined objects. */
  objectEnv: Record<string, string>;
}

/** The answer (one JSON line): accept or not, and the lines to show the client. */
export interface HookAnswer {
  ok: boolean;
  messages: string[];
}

export const HOOK_SOCKET_ENV = "COLLAB_HOOK_SOCKET";
export const HOOK_PUSH_ENV = "COLLAB_PUSH_ID";

/** Parses `pre-receive`'s stdin. */
export function parseRefUpdates(text: string): PushedRef[] {
  return text
    .split("\n")
    .map((line) => line.trim().split(" "))
    .filter((parts) => parts.length === 3)
    .map(([oldSha, newSha, ref]) => ({ oldSha, newSha, ref }));
}

/** The hook program: plain Node (no dependency), run with the interpreter that runs the service. */
function hookProgram(): string {
  return `
"use strict";
const net = require("node:net");
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const socket = process.env.${HOOK_SOCKET_ENV};
  const push = process.env.${HOOK_PUSH_ENV};
  if (!socket || !push) {
    process.stderr.write("GitLab: pushes are accepted through the repositories service only\\n");
    process.exit(1);
  }
  const updates = Buffer.concat(chunks).toString("utf8").split("\\n").map((l) => l.trim().split(" ")).filter((p) => p.length === 3).map(([oldSha, newSha, ref]) => ({ oldSha, newSha, ref }));
  const objectEnv = {};
  for (const k of ["GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH"]) if (process.env[k]) objectEnv[k] = process.env[k];
  const conn = net.createConnection(socket);
  let answer = "";
  conn.on("connect", () => conn.end(JSON.stringify({ push, updates, objectEnv }) + "\\n"));
  conn.on("data", (d) => (answer += d));
  conn.on("error", () => {
    process.stderr.write("GitLab: the push could not be checked, try again later\\n");
    process.exit(1);
  });
  conn.on("close", () => {
    let parsed;
    try {
      parsed = JSON.parse(answer);
    } catch {
      process.stderr.write("GitLab: the push could not be checked, try again later\\n");
      process.exit(1);
    }
    for (const m of parsed.messages || []) process.stderr.write(m + "\\n");
    process.exit(parsed.ok ? 0 : 1);
  });
});
`;
}

/**
 * Writes the hooks into `dir` (created), for `-c core.hooksPath=<dir>`: `pre-receive`, run by
 * `node` at `nodePath` (the service's own interpreter, so nothing else needs installing).
 */
export async function installHooks(dir: string, nodePath: string = process.execPath): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "pre-receive");
  // A shell stub, so that an interpreter path with spaces still works as a shebang would not.
  await writeFile(path.join(dir, "pre-receive.js"), hookProgram());
  await writeFile(file, `#!/bin/sh\nexec "${nodePath.replace(/(["\\$`])/g, "\\$1")}" "${path.join(dir, "pre-receive.js")}"\n`);
  await chmod(file, 0o755);
  return dir;
}
