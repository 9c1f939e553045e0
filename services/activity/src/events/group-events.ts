import { AccessLevel, call, type Caller, type Ctx } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import type { EventRow } from "../db/schema";

/** What the caller may read of the groups a page of events names. */
export interface GroupAccess {
  /** Administrators read every group and every epic. */
  admin: boolean;
  /** Groups the caller may see (public, internal when signed in, private when a member). */
  readable: Set<number>;
  /** The caller's effective level on those groups where they are Planner and up. */
  levels: Map<number, number>;
}

/**
 * A group's event as GitLab's Event#visible_to_user? decides it: the group must be readable,
 * a confidential epic (or a comment on one) needs read_confidential_epic (Planner and up), an
 * internal note Reporter and up.
 */
export function groupEventVisible(e: Pick<EventRow, "groupId" | "confidential" | "internal">, access: GroupAccess): boolean {
  if (e.groupId === null) return true;
  if (access.admin) return true;
  if (!access.readable.has(e.groupId)) return false;
  const level = access.levels.get(e.groupId) ?? 0;
  if (e.internal && level < AccessLevel.REPORTER) return false;
  return !e.confidential || level >= AccessLevel.PLANNER;
}

/**
 * The caller's access to the groups of a page's group events: one call for the groups they may
 * see, and (only when the page holds a confidential or internal one) one for their levels.
 */
export async function groupAccessOf(ctx: Ctx<unknown>, caller: Caller | null, rows: EventRow[]): Promise<GroupAccess> {
  const groupRows = rows.filter((e) => e.groupId !== null);
  const none: GroupAccess = { admin: !!caller?.admin, readable: new Set(), levels: new Map() };
  if (!groupRows.length || caller?.admin) return none;
  const ids = [...new Set(groupRows.map((e) => e.groupId as number))];
  const restricted = caller !== null && groupRows.some((e) => e.confidential || e.internal);
  const [visible, levels] = await Promise.all([
    call(ctx, Namespaces.groups.visibleByIds, { ids }),
    restricted ? call(ctx, Namespaces.access.callerGroups, { min_access_level: AccessLevel.PLANNER }) : Promise.resolve([]),
  ]);
  return { ...none, readable: new Set(visible.map((g) => g.id)), levels: new Map(levels.map((g) => [g.id, g.access_level])) };
}

/** The page without the group events the caller may not see (GitLab's total still counts them). */
export async function withoutHiddenGroupEvents(ctx: Ctx<unknown>, caller: Caller | null, rows: EventRow[]): Promise<EventRow[]> {
  const access = await groupAccessOf(ctx, caller, rows);
  return rows.filter((e) => groupEventVisible(e, access));
}
