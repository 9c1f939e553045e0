import { callerOf, forbidden, recordNotFound, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ProjectAccess } from "@collab/work-items";
import { eq } from "drizzle-orm";
import { epics, type EpicRow } from "../db/schema";
import { roleOnGroup } from "./epic-groups";
import { epicInGroups } from "./epic-issues.finder";
import { canReadEpic } from "./epic-permissions";

/** An issue write's epic params (tier-filtered: absent on the free tier). */
export interface EpicParams {
  epic_id?: number | null;
  epic_iid?: number | null;
}

/**
 * The epic an issue write names, as GitLab's issue services resolve epic_id (or the deprecated
 * epic_iid, an iid in the project's group): undefined when nothing is to change (no param, or a
 * project of no group, where GitLab ignores it), null for none (0 or empty). The epic must be of
 * the project's group or one above it and readable by the caller (404 otherwise, as its finder);
 * setting one is for those who administer the issue (403), dropping one likewise (else ignored).
 */
export async function epicOfWrite(kit: ServiceKit, ctx: Ctx<unknown>, project: ProjectAccess["project"], p: EpicParams, canAdmin: boolean): Promise<EpicRow | null | undefined> {
  if (p.epic_id === undefined && p.epic_iid === undefined) return undefined;
  if (project.group_ids.length === 0) return undefined;
  const id = p.epic_id ?? null;
  const iid = p.epic_iid ?? null;
  if (id === null && iid === null) return canAdmin ? null : undefined;
  const epic =
    id !== null ? await epicInGroups(kit.db, eq(epics.id, id), project.group_ids) : await epicInGroups(kit.db, eq(epics.iid, iid!), [project.namespace_id]);
  if (!epic) throw recordNotFound();
  const role = epic.confidential ? await roleOnGroup(ctx, epic.groupId) : 0;
  if (!canReadEpic({ caller: callerOf(ctx), role }, epic)) throw recordNotFound();
  if (!canAdmin) throw forbidden();
  return epic;
}
