import type { ActionSchema } from "moleculer";
import { implement, page, reply } from "@collab/core";
import { ErrorTracking } from "@collab/error-tracking-contract";
import type { ServiceKit } from "@collab/db";
import { operationsProject } from "../domain/access";
import { presentClientKey } from "./client-key.entity";
import { createClientKey, deleteClientKey, listClientKeys } from "./client-keys.service";

export const clientKeysActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "clientKeys.list": implement(
    ErrorTracking.clientKeys.list,
    async (ctx) => {
      const { project } = await operationsProject(ctx, ctx.params.id);
      const { rows, total } = await listClientKeys(kit.db, project.id, ctx.params);
      return page(rows.map((r) => presentClientKey(kit.baseUrl, r)), total, ctx.params);
    },
    { visibility: "published" },
  ),
  "clientKeys.create": implement(
    ErrorTracking.clientKeys.create,
    async (ctx) => {
      const { project } = await operationsProject(ctx, ctx.params.id);
      return presentClientKey(kit.baseUrl, await createClientKey(kit.db, project.id));
    },
    { visibility: "published" },
  ),
  "clientKeys.delete": implement(
    ErrorTracking.clientKeys.delete,
    async (ctx) => {
      const { project } = await operationsProject(ctx, ctx.params.id);
      // GitLab answers the destroyed key, with 200.
      return reply(200, presentClientKey(kit.baseUrl, await deleteClientKey(kit.db, project.id, ctx.params.key_id)));
    },
    { visibility: "published" },
  ),
});
