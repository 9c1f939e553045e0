import type { ActionSchema } from "moleculer";
import { actionsOf, implement, page, requireAdmin } from "@collab/core";
import { Admin } from "@collab/admin-contract";
import type { ServiceKit } from "@collab/db";
import { presentBroadcast } from "./api/broadcast.entity";
import { requireArea } from "./availability";
import { createBroadcast, deleteBroadcast, findBroadcast, listBroadcasts, updateBroadcast } from "./domain/broadcast";

const published = { visibility: "published" } as const;

/** Broadcast messages: anyone reads them; administrators manage them (self-managed and dedicated). */
export const broadcastActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("admin", [
    implement(
      Admin.broadcastMessages.list,
      async (ctx) => {
        const { rows, total } = await listBroadcasts(kit.db, ctx.params);
        const now = new Date();
        return page(rows.map((m) => presentBroadcast(m, now)), total, ctx.params);
      },
      published,
    ),

    implement(Admin.broadcastMessages.get, async (ctx) => presentBroadcast(await findBroadcast(kit.db, ctx.params.id)), published),

    implement(
      Admin.broadcastMessages.create,
      async (ctx) => {
        requireAdmin(ctx);
        requireArea("broadcastManagement", kit.config);
        return presentBroadcast(await createBroadcast(kit.db, ctx.params));
      },
      published,
    ),

    implement(
      Admin.broadcastMessages.update,
      async (ctx) => {
        requireAdmin(ctx);
        requireArea("broadcastManagement", kit.config);
        return presentBroadcast(await updateBroadcast(kit.db, ctx.params));
      },
      published,
    ),

    implement(
      Admin.broadcastMessages.delete,
      async (ctx) => {
        requireAdmin(ctx);
        requireArea("broadcastManagement", kit.config);
        await deleteBroadcast(kit.db, ctx.params.id);
        return null;
      },
      published,
    ),
  ]);
