import { call, forbidden, implement, type ActionContract, type Caller, type Ctx, type OutputOf, type ParamsOf, callerOf } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Namespaces, type ProjectAccess } from "@collab/namespaces-contract";
import { onStorage, REPOSITORIES_SERVICE, storageUnavailable } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { downloadDenial, pushDenial } from "../domain/git-access";
import { createRepository, findRepository } from "../domain/repositories";
import type { RepositoryRow } from "../db/schema";
import type { LocalStorages } from "../domain/storages";

/** A project's repository as an action on its storage's replica works with it. */
export interface ProjectRepository {
  access: ProjectAccess;
  caller: Caller | null;
  row: RepositoryRow;
  /** The bare repository's absolute folder on this replica. */
  dir: string;
}

/**
 * The project's repository row, made (empty) on its storage when the project predates
 * repositories. Only on a replica serving that storage.
 */
export async function repositoryOfProject(kit: ServiceKit, storages: LocalStorages, access: ProjectAccess): Promise<{ row: RepositoryRow; dir: string }> {
  const row =
    (await findRepository(kit.db, "project", access.project.id)) ??
    (await createRepository(kit.db, storages, { container_kind: "project", container_id: access.project.id, storage: access.project.repository_storage, default_branch: access.project.default_branch ?? "main" }));
  return { row, dir: storages.folderOf(row.storage, row.diskPath) };
}

/**
 * What a REST action needs of the caller on the repository: `read` is GitLab's download_code
 * (Reporter on a private project; anyone who sees a public or internal one whose repository is
 * open to all), `write` its push_code (Developer, not archived or read-only). Branch-level rules
 * (protected branches) are the action's own. A project the caller cannot see is namespaces' 404;
 * one they see without that right is a 403, as GitLab's authorize!.
 */
export type RepositoryNeed = "read" | "write";

function authorizeRepository(caller: Caller | null, access: ProjectAccess, need: RepositoryNeed): void {
  const denial = need === "read" ? downloadDenial(caller, access.project, access.role) : pushDenial(caller, access.project, access.role);
  if (denial) throw forbidden();
}

/**
 * A published action about a project's repository, run on a replica serving the project's
 * storage: the gateway may land the call on any replica, so one that does not serve the storage
 * forwards it (once: a forwarded call that still lands on the wrong replica is a 503, as GitLab's
 * when Gitaly is unavailable). The caller travels in ctx.meta; the project is read as the caller
 * may see it (404 when hidden) and `need` is checked before `handler` runs.
 */
export function onProjectRepository<A extends ActionContract>(
  kit: ServiceKit,
  storages: LocalStorages,
  contract: A,
  opts: { project: (p: ParamsOf<A>) => number | string; need: RepositoryNeed; visibility?: ActionSchema["visibility"] },
  handler: (ctx: Ctx<ParamsOf<A>>, repo: ProjectRepository) => Promise<OutputOf<A>>,
) {
  return implement(
    contract,
    async (ctx) => {
      const access = await call(ctx, Namespaces.access.project, { project: opts.project(ctx.params) });
      const storage = access.project.repository_storage;
      if (!storages.serves(storage)) {
        if (ctx.caller === REPOSITORIES_SERVICE) throw storageUnavailable(storage);
        return (await ctx.call(contract.name, ctx.params, onStorage(ctx, storage))) as OutputOf<A>;
      }
      const caller = callerOf(ctx);
      authorizeRepository(caller, access, opts.need);
      return handler(ctx, { access, caller, ...(await repositoryOfProject(kit, storages, access)) });
    },
    { visibility: opts.visibility ?? "published" },
  );
}
