import { iso, type UserRef } from "@collab/core";
import type { NamespaceRow, ProjectRow } from "../db/schema";
import { presentNamespaceRef } from "../shared/namespace.entity";

export const projectFullPath = (p: ProjectRow, ns: NamespaceRow) => `${ns.fullPath}/${p.path}`;
export const projectWebUrl = (p: ProjectRow, ns: NamespaceRow, baseUrl: string) => `${baseUrl}/${projectFullPath(p, ns)}`;

/** The reference other services embed (storage moves, runners, jobs): BasicProjectDetails. */
export const presentProjectIdentity = (p: ProjectRow, ns: NamespaceRow) => ({
  id: p.id,
  description: p.description,
  name: p.name,
  name_with_namespace: `${ns.fullName} / ${p.name}`,
  path: p.path,
  path_with_namespace: projectFullPath(p, ns),
  created_at: iso(p.createdAt),
});

export const presentProjectSimple = (p: ProjectRow, ns: NamespaceRow, baseUrl: string) => {
  const web = projectWebUrl(p, ns, baseUrl);
  const host = new URL(baseUrl).host;
  return {
    ...presentProjectIdentity(p, ns),
    default_branch: p.defaultBranch,
    tag_list: p.topics,
    topics: p.topics,
    ssh_url_to_repo: `git@${host.split(":")[0]}:${projectFullPath(p, ns)}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: p.emptyRepo ? null : `${web}/-/blob/${p.defaultBranch}/README.md`,
    forks_count: 0,
    avatar_url: null,
    star_count: 0,
    last_activity_at: iso(p.lastActivityAt),
    visibility: p.visibility,
    namespace: presentNamespaceRef(ns, baseUrl),
  };
};

export interface ProjectPermissions {
  project_access: { access_level: number; notification_level: number } | null;
  group_access: { access_level: number; notification_level: number } | null;
}

export const presentProject = (
  p: ProjectRow,
  ns: NamespaceRow,
  baseUrl: string,
  extra: { owner?: UserRef | null; permissions?: ProjectPermissions; openIssuesCount?: number } = {},
) => {
  const api = `${baseUrl}/api/v4/projects/${p.id}`;
  const enabled = (level: string) => level !== "disabled";
  return {
    ...presentProjectSimple(p, ns, baseUrl),
    container_registry_image_prefix: `${new URL(baseUrl).host}/${projectFullPath(p, ns)}`,
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    ...(ns.kind === "user" ? { owner: extra.owner ?? null } : {}),
    empty_repo: p.emptyRepo,
    archived: p.archived,
    packages_enabled: true,
    // GitLab's marked_for_deletion_at is a date column; both fields show that day.
    marked_for_deletion_at: p.markedForDeletionAt,
    marked_for_deletion_on: p.markedForDeletionAt,
    container_registry_enabled: true,
    container_registry_access_level: "enabled",
    issues_enabled: enabled(p.issuesAccessLevel),
    merge_requests_enabled: enabled(p.mergeRequestsAccessLevel),
    wiki_enabled: enabled(p.wikiAccessLevel),
    jobs_enabled: enabled(p.buildsAccessLevel),
    snippets_enabled: enabled(p.snippetsAccessLevel),
    can_create_merge_request_in: true,
    issues_access_level: p.issuesAccessLevel,
    repository_access_level: p.repositoryAccessLevel,
    merge_requests_access_level: p.mergeRequestsAccessLevel,
    forking_access_level: "enabled",
    wiki_access_level: p.wikiAccessLevel,
    builds_access_level: p.buildsAccessLevel,
    snippets_access_level: p.snippetsAccessLevel,
    pages_access_level: "private",
    analytics_access_level: "enabled",
    security_and_compliance_access_level: "private",
    emails_disabled: false,
    emails_enabled: true,
    shared_runners_enabled: true,
    lfs_enabled: true,
    creator_id: p.creatorId,
    import_status: "none",
    open_issues_count: extra.openIssuesCount ?? 0,
    ci_default_git_depth: 20,
    public_jobs: true,
    build_timeout: 3600,
    auto_cancel_pending_pipelines: "enabled",
    ci_config_path: null,
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: null,
    request_access_enabled: p.requestAccessEnabled,
    only_allow_merge_if_all_discussions_are_resolved: p.onlyAllowMergeIfAllDiscussionsAreResolved,
    remove_source_branch_after_merge: p.removeSourceBranchAfterMerge,
    printing_merge_request_link_enabled: true,
    merge_method: p.mergeMethod,
    squash_option: p.squashOption,
    autoclose_referenced_issues: true,
    repository_storage: p.repositoryStorage,
    ...(extra.permissions ? { permissions: extra.permissions } : {}),
  };
};
