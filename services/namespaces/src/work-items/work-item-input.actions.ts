import { action, callerOf, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { findProjectWithAccess } from "../members/access";
import { resolveWorkItemInputOn, WorkItemInputParams } from "./work-item-input";

/**
 * Everything a work item write (issue or merge request create/edit) checks here, in one call and
 * one project lookup (see resolveWorkItemInputOn). The calling service has already authorized
 * the caller on the project. (An issue create asks access.project for both at once.)
 */
export const workItemInputActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "workItems.resolveInput": action({
    visibility: "public",
    input: () => WorkItemInputParams.extend({ project_id: z.number().int() }),
    async handler(ctx) {
      const caller = callerOf(ctx);
      const found = await findProjectWithAccess(kit.db, ctx.params.project_id, caller?.id ?? 0);
      if (!found) throw notFound("Project");
      return resolveWorkItemInputOn(kit, caller, found, ctx.params);
    },
  }),
});
