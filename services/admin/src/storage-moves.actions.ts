import type { ActionSchema } from "moleculer";
import {
  call,
  accepted,
  currentSettings,
  page,
  recordNotFound,
  requireAdmin,
  validationFailed,
  type ActionContract,
  type Ctx,
  actionsOf,
  implement,
  type ImplementedAction,
  type Page,
  type Reply,
} from "@collab/core";
import type { ServiceKit } from "@collab/db";
import {
  Admin,
  type BulkMoveParams,
  type ContainerMoveParams,
  type ContainerMovesParams,
  type CreateMoveParams,
  type GroupContainer,
  type ListMovesParams,
  type MoveIdParams,
  type ProjectContainer,
} from "@collab/admin-contract";
import type { z } from "zod";
import { presentGroupMove, presentProjectMove, presentSnippetMove } from "./api/storage-move.entity";
import { requireArea } from "./availability";
import type { StorageMoveRow } from "./db/schema";
import { containerStorage, findMove, listMoves, pickStorage, scheduleMoves, tick, unknownStorage, type Call, type ContainerType } from "./domain/storage-moves";
import { Namespaces } from "@collab/namespaces-contract";
import { Snippets } from "@collab/snippets-contract";

const published = { visibility: "published" } as const;

const busOf = (ctx: Ctx<unknown>): Call => (name, params) => ctx.call(name, params);

const storages = () => currentSettings().repository_storages_weighted;
const checkStorage = (name: string | undefined, param: string) => {
  if (name !== undefined && !(name in storages())) throw unknownStorage(param);
};

/** The embedded containers of a page of moves, in one call to their owner (namespaces answers the kind asked for). */
const containersOf = async (ctx: Ctx<unknown>, kind: "project" | "group", rows: StorageMoveRow[]) =>
  rows.length ? await call(ctx, Namespaces.storage.containers, { kind, ids: rows.map((r) => r.containerId) }) : [];

/** Each container type's moves as the API shows them. */
const presentProjects = async (ctx: Ctx<unknown>, rows: StorageMoveRow[]) => {
  const byId = new Map(((await containersOf(ctx, "project", rows)) as ProjectContainer[]).map((c) => [c.id, c]));
  return rows.map((r) => presentProjectMove(r, byId.get(r.containerId)));
};
const presentGroups = async (ctx: Ctx<unknown>, rows: StorageMoveRow[]) => {
  const byId = new Map(((await containersOf(ctx, "group", rows)) as GroupContainer[]).map((c) => [c.id, c]));
  return rows.map((r) => presentGroupMove(r, byId.get(r.containerId)));
};
const presentSnippets = async (ctx: Ctx<unknown>, rows: StorageMoveRow[]) => {
  const found = rows.length ? await call(ctx, Snippets.storage.containers, { kind: "snippet", ids: rows.map((r) => r.containerId) }) : [];
  const byId = new Map(found.map((s) => [s.id, s]));
  return rows.map((r) => presentSnippetMove(r, byId.get(r.containerId)));
};

/** The contract entries of one container type's operations, whose moves present as M. */
interface MoveContracts<M> {
  list: ActionContract<typeof ListMovesParams, z.ZodType<Page<M>>>;
  get: ActionContract<typeof MoveIdParams, z.ZodType<M>>;
  listFor: ActionContract<typeof ContainerMovesParams, z.ZodType<Page<M>>>;
  getFor: ActionContract<typeof ContainerMoveParams, z.ZodType<M>>;
  create: ActionContract<typeof CreateMoveParams, z.ZodType<M>>;
  bulk: ActionContract<typeof BulkMoveParams, z.ZodType<Reply<{ message: string }>>>;
}

/** The container a per-resource route names: 404 as the resource API answers. */
const container = (ctx: Ctx<unknown>, type: ContainerType, ref: string) => containerStorage(busOf(ctx), type).state(ref);

/** The six operations of one container type (projects, snippets, groups), as GitLab mounts them. */
function movesFor<M>(
  kit: ServiceKit,
  type: ContainerType,
  contracts: MoveContracts<M>,
  present: (ctx: Ctx<unknown>, rows: StorageMoveRow[]) => Promise<M[]>,
): ImplementedAction[] {
  const area = () => {
    if (type === "group") requireArea("groupStorageMoves", kit.config);
  };
  return [
    implement(
      contracts.list,
      async (ctx) => {
        area();
        requireAdmin(ctx);
        const { rows, total } = await listMoves(kit.db, type, ctx.params);
        return page(await present(ctx, rows), total, ctx.params);
      },
      published,
    ),
    implement(
      contracts.get,
      async (ctx) => {
        area();
        requireAdmin(ctx);
        const row = await findMove(kit.db, type, ctx.params.repository_storage_move_id);
        if (!row) throw recordNotFound();
        return (await present(ctx, [row]))[0];
      },
      published,
    ),
    implement(
      contracts.listFor,
      async (ctx) => {
        area();
        requireAdmin(ctx);
        const c = await container(ctx, type, ctx.params.id);
        const { rows, total } = await listMoves(kit.db, type, ctx.params, c.id);
        return page(await present(ctx, rows), total, ctx.params);
      },
      published,
    ),
    implement(
      contracts.getFor,
      async (ctx) => {
        area();
        requireAdmin(ctx);
        const c = await container(ctx, type, ctx.params.id);
        const row = await findMove(kit.db, type, ctx.params.repository_storage_move_id, c.id);
        if (!row) throw recordNotFound();
        return (await present(ctx, [row]))[0];
      },
      published,
    ),
    /** POST /<type>s/:id/repository_storage_moves: 201 with the scheduled move. */
    implement(
      contracts.create,
      async (ctx) => {
        area();
        requireAdmin(ctx);
        checkStorage(ctx.params.destination_storage_name, "destination_storage_name");
        const c = await container(ctx, type, ctx.params.id);
        const destination = ctx.params.destination_storage_name ?? pickStorage(storages(), c.repository_storage);
        const [row] = await scheduleMoves(kit.db, busOf(ctx), type, [{ id: c.id, source: c.repository_storage }], () => destination);
        if (!row) throw validationFailed({ [type]: ["is read-only"] });
        return (await present(ctx, [row]))[0];
      },
      published,
    ),
    /** POST /<type>_repository_storage_moves: every writable container on the source storage; 202. */
    implement(
      contracts.bulk,
      async (ctx) => {
        area();
        requireAdmin(ctx);
        checkStorage(ctx.params.source_storage_name, "source_storage_name");
        checkStorage(ctx.params.destination_storage_name, "destination_storage_name");
        const source = ctx.params.source_storage_name;
        const ids = await containerStorage(busOf(ctx), type).writableIds(source);
        const dest = ctx.params.destination_storage_name;
        await scheduleMoves(kit.db, busOf(ctx), type, ids.map((id) => ({ id, source })), (s) => dest ?? pickStorage(storages(), s));
        return accepted();
      },
      published,
    ),
  ];
}

export const storageMovesActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("admin", [
    ...movesFor(kit, "project", Admin.storageMoves.project, presentProjects),
    ...movesFor(kit, "snippet", Admin.storageMoves.snippet, presentSnippets),
    ...movesFor(kit, "group", Admin.storageMoves.group, presentGroups),
    /** Bus only: one worker step now (tests tick deterministically; the timer calls the same code). */
    implement(Admin.storageMoves.tick, (ctx) => tick(kit.db, busOf(ctx), ctx.broker)),
  ]);
