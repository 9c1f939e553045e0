import { actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { presentLabelLookup } from "../labels/label.entity";
import { labelsByIds } from "../labels/labels.finder";
import { presentMilestones } from "../milestones/milestone.entity";
import { milestonesByIds } from "../milestones/milestones.finder";

/**
 * What a page of issues or merge requests names here, in one call: its labels (as labels.byIds
 * gives them) and milestones (as milestones.byIds). Unknown ids are skipped.
 */
export const workItemRefActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    implement(Namespaces.workItems.refs, async (ctx) => {
      const [labels, milestones] = await Promise.all([
        ctx.params.label_ids.length ? labelsByIds(kit.db, [...new Set(ctx.params.label_ids)]) : [],
        ctx.params.milestone_ids.length ? milestonesByIds(kit.db, [...new Set(ctx.params.milestone_ids)]) : [],
      ]);
      return {
        labels: labels.map(presentLabelLookup),
        milestones: presentMilestones(milestones, kit.baseUrl),
      };
    }),
  ]);
