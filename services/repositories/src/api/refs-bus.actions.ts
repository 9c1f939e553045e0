import { actionsOf, call, implement, type ActionContract, type Ctx, type OutputOf, type ParamsOf } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { batchCheck, findCommitByRevision, isRepository, resolveRefName } from "@collab/git";
import { onStorage, Repositories, REPOSITORIES_SERVICE, storageUnavailable } from "@collab/repositories-contract";
import { and, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { repositories, type RepositoryRow } from "../db/schema";
import type { LocalStorages } from "../domain/storages";

type HeadRef = { project_id: number; branch: string };
const keyOf = (r: HeadRef) => `${r.project_id}:${r.branch}`;

/** The projects' repository rows by project id (projects without one are absent). */
async function projectRows(kit: ServiceKit, ids: number[]): Promise<Map<number, RepositoryRow>> {
  if (!ids.length) return new Map();
  const rows = await kit.db
    .select()
    .from(repositories)
    .where(and(eq(repositories.containerKind, "project"), inArray(repositories.containerId, ids)));
  return new Map(rows.map((r) => [r.containerId, r]));
}

/** Heads read here: one `cat-file --batch-check` per repository, the repositories in parallel. */
async function localHeads(storages: LocalStorages, row: RepositoryRow, refs: HeadRef[], out: Map<string, string | null>) {
  const found = await batchCheck(
    storages.folderOf(row.storage, row.diskPath),
    refs.map((r) => `refs/heads/${r.branch}^{commit}`),
  );
  refs.forEach((r, i) => out.set(keyOf(r), found[i]?.id ?? null));
}

/**
 * A bus action about one project's repository, answered where the repository's storage is served:
 * here, or forwarded once to a replica serving it (a forwarded call landing elsewhere is a 503,
 * never a loop). `none` when the project has no repository (yet) on disk.
 */
async function onProjectStorage<A extends ActionContract>(
  kit: ServiceKit,
  storages: LocalStorages,
  ctx: Ctx<ParamsOf<A>>,
  contract: A,
  projectId: number,
  none: OutputOf<A>,
  read: (dir: string) => Promise<OutputOf<A>>,
): Promise<OutputOf<A>> {
  const row = (await projectRows(kit, [projectId])).get(projectId);
  if (!row) return none;
  if (!storages.serves(row.storage)) {
    if (ctx.caller === REPOSITORIES_SERVICE) throw storageUnavailable(row.storage);
    return call(ctx, contract, ctx.params as never, onStorage(ctx, row.storage));
  }
  const dir = storages.folderOf(row.storage, row.diskPath);
  return (await isRepository(dir)) ? read(dir) : none;
}

/** What other services ask of refs: branch heads (merge requests), refs by name (pipelines), commits (commit notes, hooks). */
export const refsBusActions = (kit: ServiceKit, storages: LocalStorages): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    implement(Repositories.refs.heads, async (ctx: Ctx<{ refs: HeadRef[] }>) => {
      const byProject = new Map<number, HeadRef[]>();
      for (const r of ctx.params.refs) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
      const rows = await projectRows(kit, [...byProject.keys()]);
      const out = new Map<string, string | null>();
      const elsewhere = new Map<string, HeadRef[]>();
      const reads: Promise<void>[] = [];
      for (const [projectId, refs] of byProject) {
        const row = rows.get(projectId);
        if (!row) continue;
        if (storages.serves(row.storage)) reads.push(localHeads(storages, row, refs, out));
        else elsewhere.set(row.storage, [...(elsewhere.get(row.storage) ?? []), ...refs]);
      }
      for (const [storage, refs] of elsewhere) {
        // A forwarded part that still lands on a replica without its storage: 503, never a loop.
        if (ctx.caller === REPOSITORIES_SERVICE) throw storageUnavailable(storage);
        reads.push(
          call(ctx, Repositories.refs.heads, { refs }, onStorage(ctx, storage)).then((answer) => {
            for (const a of answer) out.set(keyOf(a), a.sha);
          }),
        );
      }
      await Promise.all(reads);
      return ctx.params.refs.map((r) => ({ ...r, sha: out.get(keyOf(r)) ?? null }));
    }),
  
    implement(Repositories.refs.resolve, (ctx) =>
      onProjectStorage(kit, storages, ctx, Repositories.refs.resolve, ctx.params.project_id, { status: "missing" as const }, (dir) => resolveRefName(dir, ctx.params.ref)),
    ),

    implement(Repositories.refs.findCommit, (ctx) =>
      onProjectStorage(kit, storages, ctx, Repositories.refs.findCommit, ctx.params.project_id, null, async (dir) => {
        const commit = await findCommitByRevision(dir, ctx.params.ref);
        return commit && { sha: commit.id, title: commit.title, parent_ids: commit.parent_ids };
      }),
    ),
  ]);
