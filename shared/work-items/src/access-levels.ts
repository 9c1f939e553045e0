import { call, type Ctx } from "@collab/core";
import { Namespaces, type AccessOnProject } from "@collab/namespaces-contract";

/** Access levels of these users on a project (and whether each may read it), in one call. */
export const accessLevels = (ctx: Ctx<unknown>, projectId: number, userIds: number[]): Promise<AccessOnProject> =>
  userIds.length ? call(ctx, Namespaces.access.levelsOnProject, { project_id: projectId, user_ids: userIds }) : Promise.resolve({});
