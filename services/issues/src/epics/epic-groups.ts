import { call, errorBodyOf, type Ctx } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import type { ListEpicsParams } from "@collab/issues-contract";
import type { groupOf } from "@collab/work-items";
import { canReadConfidentialEpics } from "./epic-permissions";

type Group = Awaited<ReturnType<typeof groupOf>>;

/** A group an epics list looks into, and whether the caller sees its confidential epics. */
export interface EpicGroup {
  id: number;
  full_path: string;
  confidential: boolean;
}

/** Descendant groups asked for per page: GitLab's finder has no such cap, a group this deep in subgroups is rare. */
const DESCENDANTS_PAGE = 100;

/**
 * The groups a list covers (GitLab's EpicsFinder): the group, its descendants the caller may see
 * (by default) and its ancestors they may read (include_ancestor_groups). Membership is inherited
 * downwards, so the caller's role on the group holds in its descendants at least.
 */
export async function epicGroupScope(ctx: Ctx<unknown>, group: Group, p: Pick<ListEpicsParams, "include_descendant_groups" | "include_ancestor_groups">, confidentialHere: boolean): Promise<EpicGroup[]> {
  const out: EpicGroup[] = [{ id: group.group.id, full_path: group.group.full_path, confidential: confidentialHere }];
  const [descendants, ancestors] = await Promise.all([
    p.include_descendant_groups ? call(ctx, Namespaces.groups.descendants, { id: String(group.group.id), per_page: DESCENDANTS_PAGE }) : null,
    p.include_ancestor_groups ? Promise.all(group.traversal_ids.filter((id) => id !== group.group.id).map((id) => readableGroup(ctx, id))) : [],
  ]);
  for (const g of descendants?.items ?? []) out.push({ id: g.id, full_path: g.full_path, confidential: confidentialHere });
  for (const a of ancestors) if (a) out.push({ id: a.group.id, full_path: a.group.full_path, confidential: canReadConfidentialEpics({ caller: null, role: a.role }) });
  return out;
}

/** The group when the caller may read it, else null. */
export async function readableGroup(ctx: Ctx<unknown>, id: number) {
  try {
    return await call(ctx, Namespaces.access.group, { group: id });
  } catch (err) {
    if (errorBodyOf(err)?.status === 404) return null;
    throw err;
  }
}

/** The caller's role on a group, 0 when they may not read it. */
export const roleOnGroup = async (ctx: Ctx<unknown>, id: number) => (await readableGroup(ctx, id))?.role ?? 0;
