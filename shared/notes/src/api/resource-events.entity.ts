import { iso, type UserRef } from "@collab/core";
import type { LabelDetail, MilestoneDetail } from "@collab/namespaces-contract";
import type { IterationEvent, LabelEvent, MilestoneEvent, WeightEvent } from "@collab/notes-contract";
import { labelBasic } from "@collab/work-items";
import type { IterationEventRow, LabelEventRow, MilestoneEventRow, WeightEventRow } from "../db/tables";

/** What a page of events embeds, fetched once per page: users, and labels or milestones by id. */
export interface ResourceEventContext {
  users: Map<number, UserRef>;
  labels?: Map<number, LabelDetail>;
  milestones?: Map<number, MilestoneDetail>;
}

type ResourceColumns = { issueId: number | null; mergeRequestId: number | null; epicId: number | null };

/** The resource an event belongs to: exactly one of its columns is set. */
export const eventResourceOf = (e: ResourceColumns): Pick<LabelEvent, "resource_type" | "resource_id"> =>
  e.issueId !== null
    ? { resource_type: "Issue", resource_id: e.issueId }
    : e.epicId !== null
      ? { resource_type: "Epic", resource_id: e.epicId }
      : { resource_type: "MergeRequest", resource_id: e.mergeRequestId };

const base = (e: ResourceColumns & { id: number; userId: number; createdAt: Date }, c: ResourceEventContext) => ({
  id: e.id,
  user: c.users.get(e.userId) ?? null,
  created_at: iso(e.createdAt),
  ...eventResourceOf(e),
});

const action = (a: string) => (a === "remove" ? "remove" : "add");

/** GitLab's ResourceLabelEvent entity: the label as LabelBasic, null once it was deleted. */
export const presentLabelEvent = (e: LabelEventRow, c: ResourceEventContext): LabelEvent => {
  const label = e.labelId !== null ? c.labels?.get(e.labelId) : undefined;
  return { ...base(e, c), label: label ? labelBasic(label) : null, action: action(e.action) };
};

/** GitLab's ResourceMilestoneEvent entity: the milestone as Entities::Milestone, and the resource's state then. */
export const presentMilestoneEvent = (e: MilestoneEventRow, c: ResourceEventContext): MilestoneEvent => ({
  ...base(e, c),
  milestone: (e.milestoneId !== null ? c.milestones?.get(e.milestoneId) : undefined) ?? null,
  action: action(e.action),
  state: e.state,
});

/** GitLab's ResourceWeightEvent entity. */
export const presentWeightEvent = (e: WeightEventRow, c: ResourceEventContext): WeightEvent => ({
  id: e.id,
  user: c.users.get(e.userId) ?? null,
  created_at: iso(e.createdAt),
  issue_id: e.issueId,
  weight: e.weight,
});

/** GitLab's ResourceIterationEvent entity; no iteration records exist here to embed. */
export const presentIterationEvent = (e: IterationEventRow, c: ResourceEventContext): IterationEvent => ({ ...base(e, c), iteration: null, action: action(e.action) });
