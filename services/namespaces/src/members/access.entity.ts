import type { ServiceKit } from "@collab/db";
import type { NamespaceRow, ProjectRow } from "../db/schema";
import { presentProjectIdentity, projectWebUrl } from "../projects/project.entity";

/** What access.project answers (and workItems.authorizeIssueWrite with it): the project, the caller's level and role. */
export const projectAccessAnswer = (kit: ServiceKit, p: { project: ProjectRow; namespace: NamespaceRow; access: { level: number }; role: number }) => ({
  project: projectSummary(kit, p.project, p.namespace),
  access_level: p.access.level,
  role: p.role,
});

/** Everything another service needs to know about a project to authorize and present. */
export const projectSummary = (kit: ServiceKit, project: ProjectRow, ns: NamespaceRow) => ({
  ...presentProjectIdentity(project, ns),
  namespace_id: ns.id,
  namespace_full_path: ns.fullPath,
  namespace_kind: ns.kind,
  group_ids: ns.kind === "group" ? ns.traversalIds : [],
  visibility: project.visibility,
  archived: project.archived,
  default_branch: project.defaultBranch,
  web_url: projectWebUrl(project, ns, kit.baseUrl),
  issues_access_level: project.issuesAccessLevel,
  merge_requests_access_level: project.mergeRequestsAccessLevel,
  snippets_access_level: project.snippetsAccessLevel,
  builds_access_level: project.buildsAccessLevel,
  repository_access_level: project.repositoryAccessLevel,
  repository_storage: project.repositoryStorage,
  repository_read_only: project.repositoryReadOnly,
  only_allow_merge_if_all_discussions_are_resolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
  remove_source_branch_after_merge: project.removeSourceBranchAfterMerge,
  squash_option: project.squashOption,
  merge_method: project.mergeMethod,
});
