import { callerOf, errorBodyOf, forbidden, recordNotFound, type ApiError, type Ctx } from "@collab/core";
import { authorizeProject, type ProjectAccess } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { and, eq } from "drizzle-orm";
import { mergeRequests, type MergeRequestRow } from "../db/schema";
import { canReadMergeRequests, type MergeRequestActor } from "./permissions";

export interface LoadedMergeRequest {
  access: ProjectAccess;
  mergeRequest: MergeRequestRow;
  actor: MergeRequestActor;
}

/**
 * The project, when the caller may read its merge requests: 404 Project Not Found when the
 * project is hidden, 403 when it is visible but its merge requests are not (a Guest of a private
 * project), as GitLab's `authorize! :read_merge_request, user_project`.
 */
export async function mergeRequestsProject(ctx: Ctx<unknown>, ref: string | number): Promise<{ access: ProjectAccess; actor: MergeRequestActor }> {
  const access = await authorizeProject(ctx, ref);
  if (!canReadMergeRequests(access.project, access.role)) throw forbidden();
  return { access, actor: { caller: callerOf(ctx), role: access.role } };
}

export async function findMergeRequestByIid(kit: ServiceKit, projectId: number, iid: number): Promise<MergeRequestRow | undefined> {
  const [row] = await kit.db.select().from(mergeRequests).where(and(eq(mergeRequests.projectId, projectId), eq(mergeRequests.iid, iid)));
  return row;
}

/**
 * A merge request of a project whose merge requests the caller may read, as GitLab's
 * find_merge_request_with_access: a missing one is ActiveRecord's "404 Not found" by default.
 * The notes API finds its noteable through the finder instead, so there both a missing and an
 * unreadable merge request are "404 Merge Request Not Found" (`hidden`).
 */
export async function loadMergeRequest(
  kit: ServiceKit,
  ctx: Ctx<unknown>,
  projectRef: string | number,
  iid: number,
  o: { missing?: () => ApiError; hidden?: () => ApiError } = {},
): Promise<LoadedMergeRequest> {
  const missing = o.missing ?? recordNotFound;
  const { access, actor } = await mergeRequestsProject(ctx, projectRef).catch((err: unknown) => {
    throw o.hidden && errorBodyOf(err)?.status === 403 ? o.hidden() : err;
  });
  const mergeRequest = await findMergeRequestByIid(kit, access.project.id, iid);
  if (!mergeRequest) throw missing();
  return { access, mergeRequest, actor };
}
