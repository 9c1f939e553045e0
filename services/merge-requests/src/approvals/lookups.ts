import { type Ctx } from "@collab/core";
import { userMap } from "@collab/work-items";
import type { RuleLookups } from "./approvals.entity";
import { groupUserIds, protectedBranchesByIds, visibleGroups } from "./remote";

/** Everything rule presenters need for a set of rules of one project: three bus calls at most. */
export async function ruleLookups(
  ctx: Ctx<unknown>,
  projectId: number,
  rules: { userIds: number[]; groupIds: number[]; protectedBranchIds?: number[] }[],
  extraUserIds: number[] = [],
): Promise<RuleLookups> {
  const groupIds = rules.flatMap((r) => r.groupIds);
  const [groups, groupMembers, branches] = await Promise.all([
    visibleGroups(ctx, groupIds),
    groupUserIds(ctx, groupIds),
    protectedBranchesByIds(ctx, projectId, rules.flatMap((r) => r.protectedBranchIds ?? [])),
  ]);
  const users = await userMap(ctx, [...rules.flatMap((r) => r.userIds), ...[...groupMembers.values()].flat(), ...extraUserIds]);
  return { users, groups: new Map(groups.map((g) => [g.id, g])), groupMembers, protectedBranches: new Map(branches.map((b) => [b.id, b])) };
}
