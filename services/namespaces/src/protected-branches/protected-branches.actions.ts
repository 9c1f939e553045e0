import { action, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { findProject } from "../shared/lookup";
import { mergeAccessLevelFor } from "./merge-access";

/** What other services ask about branch protection. */
export const protectedBranchesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /**
   * The access level needed to merge into `branch` of a project: `{ access_level }`
   * (30 Developer, 40 Maintainer, …). The merge-requests service asks it before a merge.
   */
  "protectedBranches.mergeAccessLevel": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ project_id: z.number().int(), branch: z.string() }),
    async handler(ctx) {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) throw notFound("Project");
      return { access_level: mergeAccessLevelFor(found.project, ctx.params.branch) };
    },
  }),
});
