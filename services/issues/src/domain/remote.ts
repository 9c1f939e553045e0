import type { ReadableProject } from "../finders/issues.finder";

/**
 * Everything this service asks other services: the shared work-item bus clients of @collab/core
 * (one batched call per request or page, never one per row).
 */
export {
  accessLevels,
  authorizeProject,
  groupOf,
  labelAndMilestoneMaps,
  labelIdsByTitles,
  labelMap,
  milestoneByTitle,
  milestoneForProject,
  milestoneIdsFor,
  milestoneMap,
  projectMap,
  readableProjects,
  resolveLabels,
  userMap,
  usersByUsername,
  visibleProjectOrNull as targetProject,
  type ProjectAccess,
} from "@collab/core";
export type { ReadableProject };
