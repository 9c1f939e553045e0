import { AccessLevel, action, callerOf, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { presentLabelLookup } from "../labels/label.entity";
import { resolveLabelChanges } from "../labels/labels";
import { findProjectWithAccess, readAccessOfUsers, roleOf } from "../members/access";
import { presentMilestones } from "../milestones/milestone.entity";
import { findMilestoneInScope } from "../milestones/milestones.finder";
import { projectGroupIds } from "../shared/labels-milestones-parent";

const names = () => z.array(z.string()).max(1000).optional();

/**
 * Everything a work item write (issue or merge request create/edit) checks here, in one call and
 * one project lookup: the assignees' access to the project, whether the milestone is the
 * project's or an ancestor group's (GitLab's filter_milestone), and the labels its names resolve
 * to — unknown names in `labels` / `add_labels` become project labels when the caller may manage
 * labels there (or the call carries no caller: a system action). The calling service has already
 * authorized the caller on the project; only the parts asked for are answered.
 */
export const workItemInputActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "workItems.resolveInput": action({
    visibility: "public",
    input: () =>
      z.object({
        project_id: z.number().int(),
        assignee_ids: z.array(z.number().int()).max(1000).optional(),
        milestone_id: z.number().int().optional(),
        labels: z.object({ labels: names(), add_labels: names(), remove_labels: names() }).optional(),
      }),
    async handler(ctx) {
      const p = ctx.params;
      const caller = callerOf(ctx);
      const found = await findProjectWithAccess(kit.db, p.project_id, caller?.id ?? 0);
      if (!found) throw notFound("Project");
      const { project, namespace } = found;
      const groupIds = projectGroupIds(namespace);
      const mayCreateLabels = !project.archived && (!caller || caller.admin || roleOf(caller, found.access.level) >= AccessLevel.PLANNER);
      const container = { kind: "project" as const, id: project.id, ancestorGroupIds: groupIds, parentGroup: namespace.kind === "group" ? { id: namespace.id, name: namespace.name } : null };
      const [assigneeLevels, milestone, labels] = await Promise.all([
        p.assignee_ids && readAccessOfUsers(kit.db, project, namespace, p.assignee_ids),
        p.milestone_id === undefined ? undefined : findMilestoneInScope(kit.db, { projectIds: [project.id], groupIds }, p.milestone_id),
        p.labels && resolveLabelChanges(kit.db, container, p.labels, mayCreateLabels),
      ]);
      return {
        ...(assigneeLevels && { assignee_levels: assigneeLevels }),
        // The milestone and labels as workItems.refs gives them: the answer can be presented without asking again.
        ...(p.milestone_id !== undefined && { milestone: milestone ? presentMilestones([milestone], kit.baseUrl)[0] : null }),
        ...(labels && {
          labels: { labels: labels.labels?.map(presentLabelLookup) ?? null, add_labels: labels.add_labels.map(presentLabelLookup), remove_labels: labels.remove_labels.map(presentLabelLookup) },
        }),
      };
    },
  }),
});
