import { call, type Ctx } from "@collab/core";
import { Namespaces, type MilestoneDetail } from "@collab/namespaces-contract";

export async function milestoneMap(ctx: Ctx<unknown>, ids: Iterable<number | null>): Promise<Map<number, MilestoneDetail>> {
  const unique = [...new Set([...ids].filter((i): i is number => typeof i === "number"))];
  if (!unique.length) return new Map();
  const rows = await call(ctx, Namespaces.milestones.byIds, { ids: unique });
  return new Map(rows.map((m) => [m.id, m]));
}

/** Milestone ids matching a filter value: titles, or the Upcoming / Started / Any sentinels. */
export const milestoneIdsFor = (ctx: Ctx<unknown>, filter: { titles?: string[]; sentinel?: "Any" | "Upcoming" | "Started" }) => call(ctx, Namespaces.milestones.idsMatching, filter);

/** The project's milestone with this title (its own or an ancestor group's), or null. */
export const milestoneByTitle = (ctx: Ctx<unknown>, projectId: number, title: string) => call(ctx, Namespaces.milestones.findForProject, { project_id: projectId, title });
