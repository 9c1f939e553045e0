import type { ActionSchema } from "moleculer";
import { action, page, requireAdmin } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { presentBroadcast } from "./api/broadcast.entity";
import { BroadcastIdParams, CreateBroadcastParams, ListBroadcastParams, UpdateBroadcastParams } from "./api/broadcast.params";
import { requireArea } from "./availability";
import { createBroadcast, deleteBroadcast, findBroadcast, listBroadcasts, updateBroadcast } from "./domain/broadcast";

/** Broadcast messages: anyone reads them; administrators manage them (self-managed and dedicated). */
export const broadcastActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "broadcastMessages.list": action({
    idempotent: true,
    input: () => ListBroadcastParams,
    async handler(ctx) {
      const { rows, total } = await listBroadcasts(kit.db, ctx.params);
      const now = new Date();
      return page(rows.map((m) => presentBroadcast(m, now)), total, ctx.params);
    },
  }),

  "broadcastMessages.get": action({
    idempotent: true,
    input: () => BroadcastIdParams,
    handler: async (ctx) => presentBroadcast(await findBroadcast(kit.db, ctx.params.id)),
  }),

  "broadcastMessages.create": action({
    input: () => CreateBroadcastParams,
    async handler(ctx) {
      requireAdmin(ctx);
      requireArea("broadcastManagement", kit.config);
      return presentBroadcast(await createBroadcast(kit.db, ctx.params));
    },
  }),

  "broadcastMessages.update": action({
    input: () => UpdateBroadcastParams,
    async handler(ctx) {
      requireAdmin(ctx);
      requireArea("broadcastManagement", kit.config);
      return presentBroadcast(await updateBroadcast(kit.db, ctx.params));
    },
  }),

  "broadcastMessages.delete": action({
    input: () => BroadcastIdParams,
    async handler(ctx) {
      requireAdmin(ctx);
      requireArea("broadcastManagement", kit.config);
      await deleteBroadcast(kit.db, ctx.params.id);
      return null;
    },
  }),
});
