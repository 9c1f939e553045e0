import { actionsOf, ApiError, notFound, page, reply, uncountedPage, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { commitDiff, commitOnBranch, commitRefs, commitStats, getCommit, listCommits, pickCommit, PickError, resolveCommit, type CommitData, type PickKind } from "@collab/git";
import { Repositories } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { onProjectRepository, type ProjectRepository } from "../api/project-repository";
import type { LocalStorages } from "../domain/storages";
import { announceBranchMove, asApiError, authorizeBranchPush, authorOf, committerOf } from "./branch-writes";
import { checkCommitRequest } from "./commit-params";
import { presentCommit, presentCommitDetail, presentDiff } from "./content.entity";

const byId = { project: (p: { id: string }) => p.id };

/** The commit a path's `:sha` names (a sha, branch or tag), or GitLab's 404 "Commit Not Found". */
async function commitId(repo: ProjectRepository, sha: string): Promise<string> {
  const id = await resolveCommit(repo.dir, sha);
  if (!id) throw notFound("Commit");
  return id;
}

/** GitLab's messages for a cherry-pick or revert git cannot make (Commits::ChangeService). */
function pickRefusal(kind: PickKind, e: PickError, dryRun: boolean): ApiError {
  const [verb, done] = kind === "cherry_pick" ? ["cherry-pick", "cherry-picked"] : ["revert", "reverted"];
  const message = `Sorry, we cannot ${verb} this commit automatically. This commit may already have been ${done}, or a more recent commit may have updated some of its content.`;
  return new ApiError(400, { message, error_code: e.reason, ...(dryRun ? { dry_run: "error" } : {}) }, "BAD_REQUEST");
}

/** GitLab's commit messages of a cherry-pick and a revert. */
const pickMessage = (kind: PickKind, c: CommitData) =>
  kind === "cherry_pick" ? `${c.message.trimEnd()}\n\n(cherry picked from commit ${c.id})` : `Revert "${c.title.trim()}"\n\nThis reverts commit ${c.id}`;

/** Cherry-pick and revert: one implementation, GitLab's order of checks (push right, commit, branch). */
async function pick(kit: ServiceKit, ctx: Ctx<unknown>, repo: ProjectRepository, kind: PickKind, p: { sha: string; branch: string; dry_run: boolean; message?: string }) {
  await authorizeBranchPush(ctx, repo, p.branch);
  const id = await commitId(repo, p.sha);
  const picked = (await getCommit(repo.dir, id, { stats: false }))!;
  const committer = await committerOf(ctx);
  try {
    const { commit, before } = await pickCommit(repo.dir, kind, {
      branch: p.branch,
      commitId: id,
      message: p.message || pickMessage(kind, picked),
      committer,
      // A cherry-pick keeps its author, a revert is the committer's own.
      ...(kind === "cherry_pick" ? { author: { name: picked.author_name, email: picked.author_email, rawDate: picked.authored_date } } : {}),
      dryRun: p.dry_run,
    });
    if (!commit) return reply(200, { dry_run: "success" as const });
    await announceBranchMove(kit, ctx, repo, p.branch, before, commit.id);
    return presentCommit(commit, repo.access.project.web_url);
  } catch (e) {
    if (e instanceof PickError) throw pickRefusal(kind, e, p.dry_run);
    return asApiError(e);
  }
}

/** GitLab's commits API on the project's repository. */
export const commitsActions = (kit: ServiceKit, storages: LocalStorages): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    onProjectRepository(kit, storages, Repositories.commits.list, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const found = await listCommits(repo.dir, {
        ...(p.all ? { all: true } : { ref: p.ref_name || repo.access.project.default_branch || "HEAD" }),
        since: p.since,
        until: p.until,
        path: p.path,
        author: p.author,
        firstParent: p.first_parent,
        order: p.order,
        page: p.page,
        perPage: p.per_page,
      }).catch(asApiError);
      // An unknown ref or an empty repository: an empty list, as GitLab's.
      const commits = found?.commits ?? [];
      const webUrl = repo.access.project.web_url;
      const items = await Promise.all(
        commits.map(async (c) => {
          const shown = presentCommit(c, webUrl, { trailers: p.trailers });
          return p.with_stats ? { ...shown, stats: await commitStats(repo.dir, c.id, c.parent_ids[0] ?? null) } : shown;
        }),
      );
      return uncountedPage(items, found?.hasNext ?? false, p);
    }),

    onProjectRepository(kit, storages, Repositories.commits.get, { ...byId, need: "read" }, async (ctx, repo) => {
      const commit = await getCommit(repo.dir, ctx.params.sha, { stats: ctx.params.stats });
      if (!commit) throw notFound("Commit");
      return presentCommitDetail(commit, repo.access.project.web_url, repo.access.project.id, ctx.params.stats);
    }),

    onProjectRepository(kit, storages, Repositories.commits.diff, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const diff = await commitDiff(repo.dir, await commitId(repo, p.sha), { expanded: true });
      const all = diff?.diffs ?? [];
      const start = (p.page - 1) * p.per_page;
      return page(all.slice(start, start + p.per_page).map(presentDiff), all.length, p);
    }),

    onProjectRepository(kit, storages, Repositories.commits.refs, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const refs = await commitRefs(repo.dir, await commitId(repo, p.sha), p.type);
      const start = (p.page - 1) * p.per_page;
      return uncountedPage(refs.slice(start, start + p.per_page), refs.length > start + p.per_page, p);
    }),

    onProjectRepository(kit, storages, Repositories.commits.create, { ...byId, need: "write" }, async (ctx, repo) => {
      const p = ctx.params;
      const request = checkCommitRequest(p);
      await authorizeBranchPush(ctx, repo, request.branch);
      const committer = await committerOf(ctx);
      const { commit, before } = await commitOnBranch(repo.dir, {
        ...request,
        ...(p.start_branch !== undefined ? { start_branch: p.start_branch } : {}),
        ...(p.start_sha !== undefined ? { start_sha: p.start_sha } : {}),
        force: p.force,
        committer,
        author: authorOf(p, committer),
      }).catch(asApiError);
      await announceBranchMove(kit, ctx, repo, request.branch, before, commit.id);
      const stats = p.stats ? await commitStats(repo.dir, commit.id, commit.parent_ids[0] ?? null) : undefined;
      return presentCommitDetail({ ...commit, ...(stats ? { stats } : {}) }, repo.access.project.web_url, repo.access.project.id, p.stats);
    }),

    onProjectRepository(kit, storages, Repositories.commits.cherryPick, { ...byId, need: "write" }, (ctx, repo) => pick(kit, ctx, repo, "cherry_pick", ctx.params)),
    onProjectRepository(kit, storages, Repositories.commits.revert, { ...byId, need: "write" }, (ctx, repo) => pick(kit, ctx, repo, "revert", ctx.params)),
  ]);
