import { actionsOf, ApiError, call, callerOf, implement, type Caller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { advertisementPreamble, runGit, spawnGitService, type GitService, type GitServiceProcess, type HookAnswer, type HookRequest, type PushedRef } from "@collab/git";
import { Namespaces, type ProjectAccess } from "@collab/namespaces-contract";
import { Repositories } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { Coalesce } from "./coalesce";
import { downloadDenial, GitMessages, pushDenial } from "../domain/git-access";
import { repositoryOfProject } from "./project-repository";
import type { LocalStorages } from "../domain/storages";
import type { HookServer } from "../push/hook-server";
import { finishPush, holdPush, recordPush } from "../push/pending-pushes";
import { BRANCH_PREFIX, branchDenial, mayForcePush } from "../push/ref-checks";

/** An answer of git's HTTP transport that the gateway shows as text (GitLab's messages). */
const gitRefusal = (status: number, message: string) => new ApiError(status, { message }, status === 404 ? "NOT_FOUND" : "FORBIDDEN");

/** What GitLab turns on for upload-pack (partial clones, fetching any reachable sha). */
const UPLOAD_PACK_CONFIG = { "uploadpack.allowFilter": "true", "uploadpack.allowAnySHA1InWant": "true" };

interface Authorized {
  access: ProjectAccess;
  caller: Caller | null;
  repositoryId: number;
  dir: string;
}

/**
 * The checks of a git request, in GitLab's order: the project as the caller may see it
 * (namespaces: 404 when hidden), a job token's reach, then the right to fetch or to push. A
 * project made before repositories existed gets its (empty) repository here, on its storage.
 */
async function authorize(kit: ServiceKit, storages: LocalStorages, ctx: Ctx<unknown>, projectId: number, service: GitService): Promise<Authorized> {
  const access = await call(ctx, Namespaces.access.project, { project: projectId });
  const caller = callerOf(ctx);
  if (caller?.job && caller.job.projectId !== projectId) throw gitRefusal(404, GitMessages.notFound);
  const denial = service === "upload-pack" ? downloadDenial(caller, access.project, access.role) : pushDenial(caller, access.project, access.role);
  if (denial) throw gitRefusal(403, denial);
  const { row, dir } = await repositoryOfProject(kit, storages, access);
  return { access, caller, repositoryId: row.id, dir };
}

/**
 * Holds back the last chunk it was given until it ends: a push's report-status (git's last
 * packets) reaches the client only once the push's events are written.
 */
class HoldLast extends Transform {
  private held: Buffer | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.held) this.push(this.held);
    this.held = chunk;
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.held) this.push(this.held);
    this.held = undefined;
    done();
  }
}

/**
 * git's stdout as the action's answer, after `preamble`. `finish` runs once git has exited and
 * before the answer ends; with it, git's last output waits for it too (a push's events are
 * written before the client reads that the push went through). A client gone early kills git.
 */
function answerOf(child: GitServiceProcess, logger: ServiceKit["logger"], preamble?: Buffer, finish?: (code: number | null) => Promise<void>): Readable {
  const out = new Coalesce();
  if (preamble?.length) out.write(preamble);
  const tail = finish ? new HoldLast() : undefined;
  if (tail) {
    child.stdout.pipe(tail, { end: false });
    tail.pipe(out);
  } else child.stdout.pipe(out, { end: false });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    if (stderr.length < 2048) stderr += d.toString("utf8");
  });
  child.on("error", (err) => out.destroy(err));
  child.on("close", (code) => {
    // Only the last line: git names refs and paths there, never credentials.
    if (code !== 0) logger.warn({ code, git: stderr.trim().split("\n").slice(-1)[0] }, "git transport exited with an error");
    void (finish?.(code) ?? Promise.resolve())
      .catch((err: Error) => logger.error({ err: err.message }, "after a git transport run"))
      .finally(() => (tail ? tail.end() : out.end()));
  });
  out.on("close", () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return out;
}

/** Feeds the request body (ctx.stream) to git's stdin. */
function feed(ctx: Ctx<unknown>, child: GitServiceProcess) {
  child.stdin.on("error", () => undefined); // git may exit before it read everything (a refused push)
  const body = ctx.stream as Readable | null | undefined;
  if (!body) {
    child.stdin.end();
    return;
  }
  body.on("error", () => child.kill("SIGKILL"));
  body.pipe(child.stdin);
}

/** Whether `oldSha` is an ancestor of `newSha`, reading the push's quarantined objects too. */
async function isAncestor(dir: string, oldSha: string, newSha: string, objectEnv: Record<string, string>): Promise<boolean> {
  const { code } = await runGit(dir, ["merge-base", "--is-ancestor", oldSha, newSha], { env: objectEnv, okCodes: [1] });
  return code === 0;
}

/**
 * The pre-receive check of a push (called back by the hook, before any ref moves): protected
 * branches, force pushes and the default branch, per branch; tags and other refs pass. Any
 * refusal refuses the whole push, as GitLab's hook does, with every reason on git's side channel.
 * Force pushes are found with the pushed objects themselves: receive-pack has indexed them into
 * its quarantine when the hook runs, so `merge-base --is-ancestor` sees the new commits.
 */
async function checkPush(ctx: Ctx<unknown>, auth: Authorized, request: HookRequest, record: (updates: PushedRef[]) => Promise<void>): Promise<HookAnswer> {
  const branchOf = (u: PushedRef) => u.ref.slice(BRANCH_PREFIX.length);
  const branchUpdates = request.updates.filter((u) => u.ref.startsWith(BRANCH_PREFIX));
  const branches = [...new Set(branchUpdates.map(branchOf))];
  const rules = branches.length ? await call(ctx, Namespaces.protectedBranches.pushRules, { project_id: auth.access.project.id, branches }) : [];
  const protection = new Map(rules.map((r) => [r.branch, r]));
  const messages: string[] = [];
  for (const u of branchUpdates) {
    const rule = protection.get(branchOf(u)) ?? { protected: false, push_access_level: 30, allow_force_push: true };
    const forcePush = rule.protected && !rule.allow_force_push && mayForcePush(u) && !(await isAncestor(auth.dir, u.oldSha, u.newSha, request.objectEnv));
    const denial = branchDenial(u, branchOf(u), { defaultBranch: auth.access.project.default_branch, role: auth.access.role, protection: rule, forcePush });
    if (denial) messages.push(`GitLab: ${denial}`);
  }
  if (messages.length) return { ok: false, messages };
  await record(request.updates);
  return { ok: true, messages: [] };
}

/** git's smart HTTP transport for projects' repositories (the gateway's git module calls these). */
export const gitActions = (kit: ServiceKit, storages: LocalStorages, hooks: () => HookServer): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    implement(Repositories.git.infoRefs, async (ctx) => {
      const service: GitService = ctx.params.service === "git-upload-pack" ? "upload-pack" : "receive-pack";
      const { dir } = await authorize(kit, storages, ctx, ctx.params.project_id, service);
      const child = spawnGitService(service, dir, { advertiseRefs: true, gitProtocol: ctx.params.git_protocol, config: service === "upload-pack" ? UPLOAD_PACK_CONFIG : {} });
      child.stdin.end();
      return answerOf(child, kit.logger, advertisementPreamble(service, ctx.params.git_protocol));
    }),

    implement(Repositories.git.uploadPack, async (ctx) => {
      const { dir } = await authorize(kit, storages, ctx, ctx.params.project_id, "upload-pack");
      const child = spawnGitService("upload-pack", dir, { gitProtocol: ctx.params.git_protocol, config: UPLOAD_PACK_CONFIG });
      feed(ctx, child);
      return answerOf(child, kit.logger);
    }),

    implement(Repositories.git.receivePack, async (ctx) => {
      const auth = await authorize(kit, storages, ctx, ctx.params.project_id, "receive-pack");
      const pusher = auth.caller!;
      let pending: { id: number; updates: PushedRef[]; release: () => void } | undefined;
      // Accepted updates are recorded before git moves a ref: a crash before the events are written leaves them to the sweep.
      const record = async (updates: PushedRef[]) => {
        const project = { id: auth.access.project.id, path_with_namespace: auth.access.project.path_with_namespace };
        const id = await recordPush(kit, { repositoryId: auth.repositoryId, project, pusher: { id: pusher.id, username: pusher.username }, updates });
        pending = { id, updates, release: holdPush(kit, id) };
      };
      const session = hooks().open((request) => checkPush(ctx, auth, request, record));
      const child = spawnGitService("receive-pack", auth.dir, { gitProtocol: ctx.params.git_protocol, config: { "core.hooksPath": hooks().hooksPath }, env: session.env });
      feed(ctx, child);
      return answerOf(child, kit.logger, undefined, async () => {
        session.close();
        if (!pending) return;
        pending.release();
        const { project } = auth.access;
        await finishPush(kit, auth.dir, { id: pending.id, projectId: project.id, projectPath: project.path_with_namespace, userId: pusher.id, userUsername: pusher.username, updates: pending.updates });
      });
    }),
  ]);
