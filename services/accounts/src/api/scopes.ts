/** Personal access token scopes GitLab knows. Pure data: routes.ts imports it. */
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
