/** Constants of the accounts API its contract and the service share (pure data). */

/** Personal access token scopes GitLab knows (the service's routes and token actions take these). */
export const PAT_SCOPES = [
  "api",
  "read_api",
  "read_user",
  "read_repository",
  "write_repository",
  "read_registry",
  "write_registry",
  "sudo",
  "admin_mode",
  "create_runner",
  "manage_runner",
  "k8s_proxy",
  "ai_features",
  "read_service_ping",
  "self_rotate",
] as const;


/**
 * Scopes of project and group access tokens: Gitlab::Auth.resource_bot_scopes, every non-admin
 * scope but read_user.
 */
export const RESOURCE_TOKEN_SCOPES = [
  "api",
  "read_api",
  "read_repository",
  "write_repository",
  "read_registry",
  "write_registry",
  "create_runner",
  "manage_runner",
  "k8s_proxy",
  "ai_features",
  "self_rotate",
] as const;

/** Deploy token scopes (the spec's five), in GitLab's DeployToken::AVAILABLE_SCOPES order. */
export const DEPLOY_TOKEN_SCOPES = ["read_repository", "read_registry", "write_registry", "read_package_registry", "write_package_registry"] as const;

/** GitLab's NotificationSetting levels. */
export const NOTIFICATION_LEVELS = ["disabled", "participating", "watch", "global", "mention", "custom"] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/**
 * The email events a `custom` level switches one by one, in GitLab's order. `new_epic` is the
 * Ultimate tier's, and only where epics live: the global setting and groups, never projects.
 */
export const EMAIL_EVENTS = [
  "new_note",
  "new_issue",
  "reopen_issue",
  "close_issue",
  "reassign_issue",
  "issue_due",
  "new_merge_request",
  "push_to_merge_request",
  "reopen_merge_request",
  "close_merge_request",
  "reassign_merge_request",
  "merge_merge_request",
  "failed_pipeline",
  "fixed_pipeline",
  "success_pipeline",
  "moved_project",
  "merge_when_pipeline_succeeds",
  "new_epic",
] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number];
