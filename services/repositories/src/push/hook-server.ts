import { HOOK_PUSH_ENV, HOOK_SOCKET_ENV, installHooks, type HookAnswer, type HookRequest } from "@collab/git";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** What decides a push: called with the updates `pre-receive` read, while receive-pack waits. */
export type PushCheck = (request: HookRequest) => Promise<HookAnswer>;

/** A push being received: the environment that connects its hook back to its check. */
export interface PushSession {
  env: Record<string, string>;
  close(): void;
}

/**
 * The callback end of the `pre-receive` hook (see @collab/git hooks.ts): one Unix socket per
 * process, in a private temp folder with the hook program. A receive-pack run opens a session
 * (a random id in its environment); its hook connects, sends the ref updates and waits for the
 * session's check, which runs in the process that holds the push's caller and context. A hook
 * naming no open session is refused.
 */
export class HookServer {
  private readonly sessions = new Map<string, PushCheck>();

  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    /** `core.hooksPath` for receive-pack. */
    readonly hooksPath: string,
    private readonly socketPath: string,
  ) {}

  static async start(onError: (err: Error) => void): Promise<HookServer> {
    // A short path: Unix socket paths are limited to about 100 bytes.
    const dir = await mkdtemp(path.join(tmpdir(), "collab-hooks-"));
    const hooksPath = await installHooks(path.join(dir, "hooks"));
    const socketPath = path.join(dir, "s");
    let self: HookServer | undefined;
    // Half-open: the hook ends its side once it has sent the updates, then reads the answer.
    const server = createServer({ allowHalfOpen: true }, (conn) => self?.serve(conn, onError));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
    self = new HookServer(server, dir, hooksPath, socketPath);
    return self;
  }

  open(check: PushCheck): PushSession {
    const id = randomUUID();
    this.sessions.set(id, check);
    return { env: { [HOOK_SOCKET_ENV]: this.socketPath, [HOOK_PUSH_ENV]: id }, close: () => this.sessions.delete(id) };
  }

  private serve(conn: Socket, onError: (err: Error) => void) {
    let text = "";
    conn.setEncoding("utf8");
    conn.on("error", () => conn.destroy());
    conn.on("data", (d: string) => {
      text += d;
      if (text.length > 4 * 1024 * 1024) conn.destroy();
    });
    conn.on("end", () => {
      void this.answer(text).then(
        (answer) => conn.end(JSON.stringify(answer) + "\n"),
        (err: Error) => {
          onError(err);
          conn.end(JSON.stringify({ ok: false, messages: ["GitLab: the push could not be checked, try again later"] }) + "\n");
        },
      );
    });
  }

  private async answer(text: string): Promise<HookAnswer> {
    const request = JSON.parse(text) as HookRequest;
    const check = typeof request.push === "string" ? this.sessions.get(request.push) : undefined;
    if (!check) return { ok: false, messages: ["GitLab: unknown push"] };
    return check(request);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.dir, { recursive: true, force: true });
  }
}
