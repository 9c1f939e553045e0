import { iso } from "@collab/core";
import type { MilestoneRow } from "../db/schema";
import type { MilestoneWithPaths } from "./milestones.finder";

/** Where a milestone lives, for its web_url: the project's full path, or the group's. */
export interface MilestoneContainerPaths {
  projectPath: string | null;
  groupPath: string | null;
}

export const milestoneWebUrl = (m: Pick<MilestoneRow, "iid">, paths: MilestoneContainerPaths, baseUrl: string) =>
  paths.projectPath !== null ? `${baseUrl}/${paths.projectPath}/-/milestones/${m.iid}` : `${baseUrl}/groups/${paths.groupPath}/-/milestones/${m.iid}`;

/** Today's date (UTC) as YYYY-MM-DD, the reference for `expired`. */
export const todayUtc = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/**
 * Entities::Milestone: project_id for project milestones, group_id for group ones. `expired` is
 * "the due date is in the past" (false without a due date); `today` keeps the presenter pure.
 */
export const presentMilestone = (m: MilestoneRow, paths: MilestoneContainerPaths, baseUrl: string, today: string) => ({
  id: m.id,
  iid: m.iid,
  ...(m.projectId !== null ? { project_id: m.projectId } : { group_id: m.groupId }),
  title: m.title,
  description: m.description,
  state: m.state,
  created_at: iso(m.createdAt),
  updated_at: iso(m.updatedAt),
  due_date: m.dueDate,
  start_date: m.startDate,
  expired: m.dueDate !== null && m.dueDate < today,
  web_url: milestoneWebUrl(m, paths, baseUrl),
});

/** Milestones found with their containers' paths, all judged against the same `today`. */
export const presentMilestones = (rows: MilestoneWithPaths[], baseUrl: string) => {
  const today = todayUtc();
  return rows.map((r) => presentMilestone(r.milestone, r, baseUrl, today));
};
