import { atLeastOneOf, gBool, gDate, gDateTime, gEnum, gId, gInt, gSort, gString, gStringArray, paginationParams, VISIBILITIES } from "@collab/core";
import { z } from "zod";

const visibility = gEnum(VISIBILITIES as unknown as ["private", "internal", "public"]);
const featureAccess = gEnum(["disabled", "private", "enabled", "public"] as const);

export const projectRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });

const projectSettings = {
  description: gString().optional(),
  visibility: visibility.optional(),
  default_branch: gString().optional(),
  topics: gStringArray().optional(),
  tag_list: gStringArray().optional(),
  issues_access_level: featureAccess.optional(),
  merge_requests_access_level: featureAccess.optional(),
  wiki_access_level: featureAccess.optional(),
  builds_access_level: featureAccess.optional(),
  snippets_access_level: featureAccess.optional(),
  repository_access_level: featureAccess.optional(),
  issues_enabled: gBool().optional(),
  merge_requests_enabled: gBool().optional(),
  wiki_enabled: gBool().optional(),
  jobs_enabled: gBool().optional(),
  snippets_enabled: gBool().optional(),
  request_access_enabled: gBool().optional(),
  only_allow_merge_if_all_discussions_are_resolved: gBool().optional(),
  remove_source_branch_after_merge: gBool().optional(),
  squash_option: gEnum(["never", "always", "default_on", "default_off"] as const).optional(),
  merge_method: gEnum(["merge", "rebase_merge", "ff"] as const).optional(),
};

export const CreateProjectParams = z
  .object({
    name: gString().optional(),
    path: gString().optional(),
    namespace_id: gId().optional(),
    initialize_with_readme: gBool().optional(),
    ...projectSettings,
  })
  .superRefine(atLeastOneOf("name", "path"));
export type CreateProjectParams = z.output<typeof CreateProjectParams>;

export const UpdateProjectParams = z.object({ id: projectRef(), name: gString().optional(), path: gString().optional(), ...projectSettings });
export type UpdateProjectParams = z.output<typeof UpdateProjectParams>;

export const ProjectRefParams = z.object({ id: projectRef() });

export const ListProjectsParams = z.object({
  ...paginationParams,
  archived: gBool().optional(),
  visibility: visibility.optional(),
  order_by: gEnum(["id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity", "star_count", "repository_size", "storage_size"] as const).default("created_at"),
  sort: gSort("desc"),
  search: gString().optional(),
  search_namespaces: gBool().optional(),
  simple: gBool().optional(),
  owned: gBool().optional(),
  membership: gBool().optional(),
  starred: gBool().optional(),
  min_access_level: gInt().optional(),
  id_after: gInt().optional(),
  id_before: gInt().optional(),
  last_activity_after: gDateTime().optional(),
  last_activity_before: gDateTime().optional(),
  topic: gStringArray().optional(),
  repository_storage: gString().optional(),
  with_issues_enabled: gBool().optional(),
  with_merge_requests_enabled: gBool().optional(),
  /** Projects marked for adjourned deletion on that day (Premium). */
  marked_for_deletion_on: gDate().optional(),
});
export type ListProjectsParams = z.output<typeof ListProjectsParams>;

export const ListGroupProjectsParams = ListProjectsParams.extend({
  id: gString(),
  include_subgroups: gBool().optional(),
  order_by: gEnum(["id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity", "star_count"] as const).default("created_at"),
});
export type ListGroupProjectsParams = z.output<typeof ListGroupProjectsParams>;
