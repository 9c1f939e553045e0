import type { ActionSchema } from "moleculer";
import { call, accepted, action, currentSettings, notFound, page, recordNotFound, requireAdmin, validationFailed, type Ctx, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Admin } from "@collab/admin-contract";
import { presentMove } from "./api/storage-move.entity";
import { BulkMoveParams, ContainerMoveParams, ContainerMovesParams, CreateMoveParams, ListMovesParams, MoveIdParams } from "./api/storage-moves.params";
import { requireArea } from "./availability";
import type { StorageMoveRow } from "./db/schema";
import { findMove, listMoves, pickStorage, scheduleMoves, tick, unknownStorage, type Call, type ContainerType } from "./domain/storage-moves";
import { Namespaces } from "@collab/namespaces-contract";

const busOf = (ctx: Ctx<unknown>): Call => (name, params) => ctx.call(name, params);

const storages = () => currentSettings().repository_storages_weighted;
const checkStorage = (name: string | undefined, param: string) => {
  if (name !== undefined && !(name in storages())) throw unknownStorage(param);
};

/** The embedded containers of a page of moves, in one namespaces call. */
async function present(ctx: Ctx<unknown>, type: ContainerType, rows: StorageMoveRow[]) {
  const containers =
    type === "snippet" || !rows.length
      ? []
      : await call(ctx, Namespaces.storage.containers, { kind: type, ids: rows.map((r) => r.containerId) });
  const byId = new Map(containers.map((c) => [c.id, c]));
  return rows.map((r) => presentMove(r, byId.get(r.containerId)));
}

/** The container a per-resource route names: 404 as the resource API answers. */
async function container(ctx: Ctx<unknown>, type: ContainerType, ref: string) {
  if (type === "snippet") throw notFound("Snippet"); // there are no snippets in this system
  return call(ctx, Namespaces.storage.state, { kind: type, ref });
}

/** The six operations of one container type (projects, snippets, groups), as GitLab mounts them. */
function movesFor(kit: ServiceKit, type: ContainerType): Record<string, ActionSchema> {
  const area = () => {
    if (type === "group") requireArea("groupStorageMoves", kit.config);
  };
  const prefix = `storageMoves.${type}`;
  return {
    [`${prefix}.list`]: action({
      idempotent: true,
      input: () => ListMovesParams,
      async handler(ctx) {
        area();
        requireAdmin(ctx);
        const { rows, total } = await listMoves(kit.db, type, ctx.params);
        return page(await present(ctx, type, rows), total, ctx.params);
      },
    }),
    [`${prefix}.get`]: action({
      idempotent: true,
      input: () => MoveIdParams,
      async handler(ctx) {
        area();
        requireAdmin(ctx);
        const row = await findMove(kit.db, type, ctx.params.repository_storage_move_id);
        if (!row) throw recordNotFound();
        return (await present(ctx, type, [row]))[0];
      },
    }),
    [`${prefix}.listFor`]: action({
      idempotent: true,
      input: () => ContainerMovesParams,
      async handler(ctx) {
        area();
        requireAdmin(ctx);
        const c = await container(ctx, type, ctx.params.id);
        const { rows, total } = await listMoves(kit.db, type, ctx.params, c.id);
        return page(await present(ctx, type, rows), total, ctx.params);
      },
    }),
    [`${prefix}.getFor`]: action({
      idempotent: true,
      input: () => ContainerMoveParams,
      async handler(ctx) {
        area();
        requireAdmin(ctx);
        const c = await container(ctx, type, ctx.params.id);
        const row = await findMove(kit.db, type, ctx.params.repository_storage_move_id, c.id);
        if (!row) throw recordNotFound();
        return (await present(ctx, type, [row]))[0];
      },
    }),
    /** POST /<type>s/:id/repository_storage_moves: 201 with the scheduled move. */
    [`${prefix}.create`]: action({
      input: () => CreateMoveParams,
      async handler(ctx) {
        area();
        requireAdmin(ctx);
        checkStorage(ctx.params.destination_storage_name, "destination_storage_name");
        const c = await container(ctx, type, ctx.params.id);
        const destination = ctx.params.destination_storage_name ?? pickStorage(storages(), c.repository_storage);
        const [row] = await scheduleMoves(kit.db, busOf(ctx), type as "project" | "group", [{ id: c.id, source: c.repository_storage }], () => destination);
        if (!row) throw validationFailed({ [type]: ["is read-only"] });
        return (await present(ctx, type, [row]))[0];
      },
    }),
    /** POST /<type>_repository_storage_moves: every writable container on the source storage; 202. */
    [`${prefix}.bulk`]: action({
      input: () => BulkMoveParams,
      async handler(ctx) {
        area();
        requireAdmin(ctx);
        checkStorage(ctx.params.source_storage_name, "source_storage_name");
        checkStorage(ctx.params.destination_storage_name, "destination_storage_name");
        if (type === "snippet") return accepted();
        const source = ctx.params.source_storage_name;
        const ids = await call(ctx, Namespaces.storage.writableIds, { kind: type, storage: source });
        const dest = ctx.params.destination_storage_name;
        await scheduleMoves(kit.db, busOf(ctx), type, ids.map((id) => ({ id, source })), (s) => dest ?? pickStorage(storages(), s));
        return accepted();
      },
    }),
  };
}

export const storageMovesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  ...movesFor(kit, "project"),
  ...movesFor(kit, "snippet"),
  ...movesFor(kit, "group"),
  ...actionsOf("admin", [
    /** Bus only: one worker step now (tests tick deterministically; the timer calls the same code). */
    implement(Admin.storageMoves.tick, (ctx) => tick(kit.db, busOf(ctx))),
  ]),
});
