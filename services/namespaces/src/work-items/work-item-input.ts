import { AccessLevel, type Caller } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { WorkItemInputSchema } from "@collab/namespaces-contract";
import type { z } from "zod";
import type { NamespaceRow, ProjectRow } from "../db/schema";
import { presentLabelLookup } from "../labels/label.entity";
import { labelChangeNames, labelTitles, resolveLabelChanges } from "../labels/labels";
import { accessOfUsersFrom, readAccessFrom, roleOf, type ProjectAccessDetail } from "../members/access";
import { presentMilestones } from "../milestones/milestone.entity";
import { findWorkItemInputRows } from "./work-item-input.finder";
import { projectGroupIds } from "../shared/labels-milestones-parent";

/** What a work item write asks to check here: assignees' access, a milestone, label names. */
export type WorkItemInputParams = z.output<typeof WorkItemInputSchema>;

/**
 * Checks a work item write's input on a project the caller was found with: the assignees' access
 * to it, whether the milestone is its own or an ancestor group's (GitLab's filter_milestone), and
 * the labels the names resolve to — unknown names in `labels` / `add_labels` become project
 * labels when the caller may manage labels there (or the call carries no caller: a system
 * action) and the project takes writes. Only the parts asked for are answered; the milestone and
 * labels as workItems.refs gives them, so the write's answer needs not ask again.
 */
export async function resolveWorkItemInputOn(
  kit: ServiceKit,
  caller: Caller | null,
  found: { project: ProjectRow; namespace: NamespaceRow; access: ProjectAccessDetail },
  p: WorkItemInputParams,
) {
  const { project, namespace } = found;
  const groupIds = projectGroupIds(namespace);
  const writable = !project.archived && !project.repositoryReadOnly;
  const mayCreateLabels = writable && (!caller || caller.admin || roleOf(caller, found.access.level) >= AccessLevel.PLANNER);
  const container = { kind: "project" as const, id: project.id, ancestorGroupIds: groupIds, parentGroup: namespace.kind === "group" ? { id: namespace.id, name: namespace.name } : null };
  // One statement reads what the three parts need; only new labels cost another.
  const assigneeIds = p.assignee_ids && [...new Set(p.assignee_ids)];
  const asked = assigneeIds !== undefined || p.milestone_id !== undefined || p.labels !== undefined;
  const rows = !asked ? { levels: [], milestone: undefined, labels: [] } : await findWorkItemInputRows(kit.db, {
    projectId: project.id,
    namespaceIds: namespace.traversalIds,
    groupIds,
    userIds: assigneeIds ?? [],
    milestoneId: p.milestone_id ?? null,
    titles: p.labels ? labelTitles(labelChangeNames(p.labels)) : [],
  });
  const assigneeLevels = assigneeIds && readAccessFrom(project, accessOfUsersFrom(namespace, assigneeIds, rows.levels));
  const milestone = rows.milestone;
  const labels = p.labels && (await resolveLabelChanges(kit.db, container, p.labels, mayCreateLabels, rows.labels));
  return {
    ...(assigneeLevels && { assignee_levels: assigneeLevels }),
    ...(p.milestone_id !== undefined && { milestone: milestone ? presentMilestones([milestone], kit.baseUrl)[0] : null }),
    ...(labels && {
      labels: { labels: labels.labels?.map(presentLabelLookup) ?? null, add_labels: labels.add_labels.map(presentLabelLookup), remove_labels: labels.remove_labels.map(presentLabelLookup) },
    }),
  };
}
