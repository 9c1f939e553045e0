import { gBool, gDate, gDateTime, gEnum, gInt, gIntArray, gString, mutuallyExclusive, paginationParams } from "@collab/core";
import { z } from "zod";
import { LABEL_SOURCES } from "./labels";

export const MILESTONE_SOURCES = LABEL_SOURCES;
export type MilestoneSource = (typeof MILESTONE_SOURCES)[number];

const source = { source: gEnum(MILESTONE_SOURCES), id: gString().refine((s) => s.length > 0, { error: "is invalid" }) };

/** YYYY-MM-DD, or ""/null to clear a date. */
const optionalDate = () => z.union([gDate(), z.literal(""), z.null()], { error: "is invalid" }).optional();

const optionalText = () => gString().nullable().optional();

export const ListMilestonesParams = z
  .object({
    ...source,
    ...paginationParams,
    state: gEnum(["active", "closed", "all"] as const).default("all"),
    iids: gIntArray().optional(),
    title: gString().optional(),
    search: gString().optional(),
    include_parent_milestones: gBool().optional(),
    include_ancestors: gBool().optional(),
    /** Groups only: milestones of subgroups and of projects below the group. */
    include_descendants: gBool().optional(),
    updated_before: gDateTime().optional(),
    updated_after: gDateTime().optional(),
  })
  .superRefine(mutuallyExclusive("include_ancestors", "include_parent_milestones"));
export type ListMilestonesParams = z.output<typeof ListMilestonesParams>;

export const MilestoneRefParams = z.object({ ...source, milestone_id: gInt() });
export type MilestoneRefParams = z.output<typeof MilestoneRefParams>;

export const CreateMilestoneParams = z.object({
  ...source,
  title: gString(),
  description: optionalText(),
  due_date: optionalDate(),
  start_date: optionalDate(),
});
export type CreateMilestoneParams = z.output<typeof CreateMilestoneParams>;

export const UpdateMilestoneParams = z
  .object({
    ...source,
    milestone_id: gInt(),
    title: gString().optional(),
    state_event: gEnum(["close", "activate"] as const).optional(),
    description: optionalText(),
    due_date: optionalDate(),
    start_date: optionalDate(),
  })
  .superRefine((v, c) => {
    const keys = ["title", "description", "start_date", "due_date", "state_event"] as const;
    if (!keys.some((k) => v[k] !== undefined))
      c.addIssue({ code: "custom", path: [], message: `${keys.join(", ")} are missing, at least one parameter must be provided` });
  });
export type UpdateMilestoneParams = z.output<typeof UpdateMilestoneParams>;
