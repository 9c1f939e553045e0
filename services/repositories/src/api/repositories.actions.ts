import { actionsOf, implement, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Repositories } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { commitFiles, createRepository, findRepository, presentRepository, removeRepositoryOf } from "../domain/repositories";
import type { LocalStorages } from "../domain/storages";
import { removeLeftCopy, replicateRepository, sourceBundle, sourceRefState } from "../domain/moves";

/**
 * Bus actions about a container's repository, called by the container's owner (namespaces for
 * projects) on the replica serving the storage (`onStorage` of the contract).
 */
export const repositoriesActions = (kit: ServiceKit, storages: LocalStorages): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    implement(Repositories.repositories.create, async (ctx) => presentRepository(await createRepository(kit.db, storages, ctx.params), storages)),

    implement(Repositories.repositories.find, async (ctx) => {
      const row = await findRepository(kit.db, ctx.params.container_kind, ctx.params.container_id);
      return row ? presentRepository(row, storages) : null;
    }),

    implement(Repositories.repositories.commit, async (ctx) => {
      const { container_kind, container_id, ...commit } = ctx.params;
      const row = await findRepository(kit.db, container_kind, container_id);
      if (!row) throw notFound("Repository");
      return commitFiles(storages, row, commit);
    }),

    implement(Repositories.repositories.remove, async (ctx) => {
      const row = await findRepository(kit.db, ctx.params.container_kind, ctx.params.container_id);
      if (!row) return { removed: false };
      await kit.db.transaction((tx) => removeRepositoryOf(tx, storages, row));
      return { removed: true };
    }),

    /** Storage moves (services/admin): the copy on the destination's replica, the source's side, the cleanup. */
    implement(Repositories.repositories.replicate, (ctx) => replicateRepository(ctx, kit.db, storages, ctx.params)),
    implement(Repositories.repositories.refState, (ctx) => sourceRefState(kit.db, storages, ctx.params)),
    implement(Repositories.repositories.bundle, (ctx) => sourceBundle(kit.db, storages, ctx.params)),
    implement(Repositories.repositories.removeCopy, (ctx) => removeLeftCopy(kit.db, storages, ctx.params)),
  ]);
