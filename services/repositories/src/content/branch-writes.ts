import { Accounts } from "@collab/accounts-contract";
import { badRequestMessage, call, forbidden, notFound, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { RepositoryError, type Person } from "@collab/git";
import { Namespaces } from "@collab/namespaces-contract";
import type { ProjectRepository } from "../api/project-repository";
import { pushAnnouncements } from "../push/push-events";

/**
 * What every write of the content API shares (commits, files, cherry-pick, revert): the branch's
 * protection, the committer, git's refusals in GitLab's words, and the push event once the branch
 * moved (the same builder as git pushes: push-events.ts).
 */

/** GitLab's authorize_push_to_branch!: a protected branch needs the caller's role at its push level. */
export async function authorizeBranchPush(ctx: Ctx<unknown>, repo: ProjectRepository, branch: string): Promise<void> {
  // No ref name git accepts is this long (and namespaces' rules take names up to 1024 characters).
  if (branch.length > 1024) throw badRequestMessage("Branch name is invalid");
  const [rule] = await call(ctx, Namespaces.protectedBranches.pushRules, { project_id: repo.access.project.id, branches: [branch] });
  if (rule?.protected && repo.access.role < rule.push_access_level) throw forbidden("You are not allowed to push into this branch");
}

/** The caller as git's committer: their name and commit email (GitLab's commit_email). */
export async function committerOf(ctx: Ctx<unknown>): Promise<Person> {
  const me = await call(ctx, Accounts.users.current, {});
  return { name: me.name, email: me.commit_email };
}

/** The author a write names (author_name / author_email), each part defaulting to the committer's. */
export const authorOf = (p: { author_name?: string; author_email?: string }, committer: Person): Person => ({
  name: p.author_name || committer.name,
  email: p.author_email || committer.email,
});

/**
 * git's refusals as GitLab answers them: an invalid change or a branch moved meanwhile is a 400
 * with the reason (render_api_error!), a missing commit or branch a 404.
 */
export function asApiError(e: unknown): never {
  if (e instanceof RepositoryError) {
    if (e.kind === "not_found") throw notFound(e.message.replace(/ Not Found$/, ""));
    throw badRequestMessage(e.message);
  }
  throw e;
}

/** Publishes `repositories.branch.pushed` for a branch this service moved from `before` to `after`. */
export async function announceBranchMove(kit: ServiceKit, ctx: Ctx<unknown>, repo: ProjectRepository, branch: string, before: string, after: string): Promise<void> {
  const caller = requireCaller(ctx);
  const events = await pushAnnouncements(repo.dir, [{ ref: `refs/heads/${branch}`, oldSha: before, newSha: after }], repo.access.project, { id: caller.id, username: caller.username }, kit.baseUrl);
  if (events.length) await kit.events.transact(async () => undefined, () => events);
}
