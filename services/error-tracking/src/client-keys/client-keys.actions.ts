import type { ActionSchema } from "moleculer";
import { action, page, reply } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { operationsProject } from "../domain/access";
import { CreateClientKeyParams, DeleteClientKeyParams, ListClientKeysParams } from "./client-keys.params";
import { presentClientKey } from "./client-key.entity";
import { createClientKey, deleteClientKey, listClientKeys } from "./client-keys.service";

export const clientKeysActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "clientKeys.list": action({
    input: () => ListClientKeysParams,
    idempotent: true,
    async handler(ctx) {
      const { project } = await operationsProject(ctx, ctx.params.id);
      const { rows, total } = await listClientKeys(kit.db, project.id, ctx.params);
      return page(rows.map((r) => presentClientKey(kit.baseUrl, r)), total, ctx.params);
    },
  }),
  "clientKeys.create": action({
    input: () => CreateClientKeyParams,
    async handler(ctx) {
      const { project } = await operationsProject(ctx, ctx.params.id);
      return presentClientKey(kit.baseUrl, await createClientKey(kit.db, project.id));
    },
  }),
  "clientKeys.delete": action({
    input: () => DeleteClientKeyParams,
    async handler(ctx) {
      const { project } = await operationsProject(ctx, ctx.params.id);
      // GitLab answers the destroyed key, with 200.
      return reply(200, presentClientKey(kit.baseUrl, await deleteClientKey(kit.db, project.id, ctx.params.key_id)));
    },
  }),
});
