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
  milestoneIdsFor,
  milestoneMap,
  projectMap,
  readableProjects,
  resolveLabels,
  resolveWorkItemInput,
  resolvedWorkItemInput,
  workItemInputRequest,
  type ResolvedWorkItemInput,
  type WorkItemInputRefs,
  userMap,
  usersByUsername,
  visibleProjectOrNull as targetProject,
  type ProjectAccess,
} from "@collab/core";
export type { ReadableProject };
