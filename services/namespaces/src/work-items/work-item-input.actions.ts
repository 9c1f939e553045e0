import { actionsOf, callerOf, featureHidden, implement, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { findProjectWithAccess } from "../members/access";
import { projectAccessAnswer } from "../members/access.entity";
import { readableProject } from "../members/authorize";
import { resolveWorkItemInputOn } from "./work-item-input";

/**
 * What a work item write (issue or merge request create/edit) checks here, in one call and one
 * project lookup (see resolveWorkItemInputOn). Not reads: unknown label names may become labels.
 */
export const workItemInputActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /** The input alone, on a project the calling service has already authorized the caller on. */
    implement(Namespaces.workItems.resolveInput, async (ctx) => {
      const caller = callerOf(ctx);
      const found = await findProjectWithAccess(kit.db, ctx.params.project_id, caller?.id ?? 0);
      if (!found) throw notFound("Project");
      return resolveWorkItemInputOn(kit, caller, found, ctx.params);
    }),

    /**
     * An issue write's authorization and input at once: the project as access.project answers it
     * and, when the caller may reach the project's issues, the input checked there too
     * (`issue_input`): an issue create makes one call here, not two.
     */
    implement(Namespaces.workItems.authorizeIssueWrite, async (ctx) => {
      const p = await readableProject(kit.db, ctx, ctx.params.project);
      const wanted = ctx.params.issue_input;
      return {
        ...projectAccessAnswer(kit, p),
        ...(!featureHidden(p.project.issuesAccessLevel, p.role) && { issue_input: await resolveWorkItemInputOn(kit, callerOf(ctx), p, wanted) }),
      };
    }),
  ]);
