/** Personal access token scopes GitLab knows (the contract's: its token actions take them). Pure data: routes.ts imports it. */
export { PAT_SCOPES } from "@collab/accounts-contract";

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
