import { AccessLevel, call, errorBodyOf, fileResponse, forbidden, implement, page, reply, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { MergeRequests, type MergeRequestEntity } from "@collab/merge-requests-contract";
import { Repositories, type MergeRequestGitState } from "@collab/repositories-contract";
import { assertWritable, userMap, type ProjectAccess } from "@collab/work-items";
import { eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { mergeRequests, type MergeRequestRow } from "../db/schema";
import { loadMergeRequest } from "../domain/load";
import { diffRefsOf } from "./branches";

type PresentOne = (kit: ServiceKit, ctx: Ctx<unknown>, loaded: { access: ProjectAccess; role: number }, mr: MergeRequestRow, live?: MergeRequestGitState) => Promise<MergeRequestEntity>;

const load = (kit: ServiceKit, ctx: Ctx<{ id: string; merge_request_iid: number }>) => loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);

/** GitLab's rebase failure, kept on the merge request as merge_error. */
const REBASE_FAILED = "Rebase failed. Please rebase locally";

/** commits, changes, diffs, raw_diffs and rebase of one merge request (GitLab's merge requests API). */
export function codeActions(kit: ServiceKit, presentOne: PresentOne): Record<string, ActionSchema> {
  return {
    "mergeRequests.commits": implement(
      MergeRequests.mergeRequests.commits,
      async (ctx) => {
        const { access, mergeRequest: mr } = await load(kit, ctx);
        const range = await diffRefsOf(ctx, mr);
        if (!range) return page([], 0, ctx.params);
        const d = await call(ctx, Repositories.mergeRequests.diff, { project_id: mr.projectId, base_sha: range.base, head_sha: range.head, commits: { page: ctx.params.page, per_page: ctx.params.per_page } });
        const items = d.commits.map((c) => ({ ...c, web_url: `${access.project.web_url}/-/commit/${c.id}` }));
        return page(items, d.commits_total, ctx.params);
      },
      { visibility: "published" },
    ),

    "mergeRequests.changes": implement(
      MergeRequests.mergeRequests.changes,
      async (ctx) => {
        const loaded = await load(kit, ctx);
        const mr = loaded.mergeRequest;
        const range = await diffRefsOf(ctx, mr);
        // access_raw_diffs: every file, no collection limits (GitLab reads them from Gitaly then).
        const d = range
          ? await call(ctx, Repositories.mergeRequests.diff, { project_id: mr.projectId, base_sha: range.base, head_sha: range.head, diffs: ctx.params.access_raw_diffs ? { page: 1, per_page: 100 } : { all: true, expanded: true } })
          : null;
        const changes = ctx.params.access_raw_diffs && range ? await allFiles(ctx, mr.projectId, range, d!) : (d?.diffs ?? []);
        const entity = await presentOne(kit, ctx, { access: loaded.access, role: loaded.actor.role }, mr, range?.live);
        return { ...entity, changes, overflow: d?.overflow ?? false };
      },
      { visibility: "published" },
    ),

    "mergeRequests.diffs": implement(
      MergeRequests.mergeRequests.diffs,
      async (ctx) => {
        const { mergeRequest: mr } = await load(kit, ctx);
        const range = await diffRefsOf(ctx, mr);
        if (!range) return page([], 0, ctx.params);
        const d = await call(ctx, Repositories.mergeRequests.diff, { project_id: mr.projectId, base_sha: range.base, head_sha: range.head, diffs: { page: ctx.params.page, per_page: ctx.params.per_page } });
        return page(d.diffs, d.diffs_total, ctx.params);
      },
      { visibility: "published" },
    ),

    "mergeRequests.rawDiffs": implement(
      MergeRequests.mergeRequests.rawDiffs,
      async (ctx) => {
        const { mergeRequest: mr } = await load(kit, ctx);
        const range = await diffRefsOf(ctx, mr);
        const raw = range ? (await call(ctx, Repositories.mergeRequests.diff, { project_id: mr.projectId, base_sha: range.base, head_sha: range.head, raw: true })).raw : "";
        return fileResponse(ctx, Buffer.from(raw ?? "", "utf8"), { filename: `${mr.iid}.diff`, contentType: "text/plain; charset=utf-8" });
      },
      { visibility: "published" },
    ),

    /**
     * PUT …/rebase: 403 unless the caller may push to the source branch (Developer) of an open
     * merge request. The rebase runs within the request; its failure is kept as merge_error (as
     * GitLab's worker leaves it) and a success clears it. The push it makes refreshes the merge
     * request (sha, diff refs, approvals) like any other.
     */
    "mergeRequests.rebase": implement(
      MergeRequests.mergeRequests.rebase,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const { access, mergeRequest: mr, actor } = await load(kit, ctx);
        if (actor.role < AccessLevel.DEVELOPER || mr.state !== "opened") throw forbidden();
        assertWritable(access);
        const [author] = (await userMap(ctx, [caller.id])).values();
        let mergeError: string | null = null;
        try {
          await call(ctx, Repositories.mergeRequests.rebase, {
            project_id: mr.projectId,
            project_path: access.project.path_with_namespace,
            source_branch: mr.sourceBranch,
            target_branch: mr.targetBranch,
            user: { id: caller.id, username: caller.username, name: author?.name ?? caller.username, email: `${caller.username}@noreply.${new URL(kit.baseUrl).hostname}` },
          });
        } catch (err) {
          const refused = errorBodyOf(err);
          if (!refused || refused.status !== 422) throw err;
          mergeError = REBASE_FAILED;
        }
        if (mergeError !== mr.mergeError) await kit.db.update(mergeRequests).set({ mergeError }).where(eq(mergeRequests.id, mr.id));
        return reply(202, { rebase_in_progress: true });
      },
      { visibility: "published" },
    ),
  };
}

/** access_raw_diffs: every page of files, no collection limit. */
async function allFiles(ctx: Ctx<unknown>, projectId: number, range: { base: string; head: string }, first: { diffs: unknown[]; diffs_total: number }) {
  const files = [...(first.diffs as Awaited<ReturnType<typeof fetchPage>>)];
  for (let p = 2; files.length < first.diffs_total; p++) files.push(...(await fetchPage(ctx, projectId, range, p)));
  return files;
}

const fetchPage = async (ctx: Ctx<unknown>, projectId: number, range: { base: string; head: string }, p: number) =>
  (await call(ctx, Repositories.mergeRequests.diff, { project_id: projectId, base_sha: range.base, head_sha: range.head, diffs: { page: p, per_page: 100 } })).diffs;
