import type { UserRef } from "@collab/accounts-contract";
import type { ProjectSummary } from "@collab/namespaces-contract";

/**
 * The common parts of GitLab's webhook payloads (doc/user/project/integrations/webhook_events.md):
 * the acting user, the project and its repository. Email addresses are "[REDACTED]" as GitLab
 * sends them.
 */
export type HookProject = Pick<ProjectSummary, "id" | "name" | "path_with_namespace" | "namespace_name" | "web_url" | "visibility" | "default_branch">;

const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 };

const sshUrl = (p: HookProject) => `git@${new URL(p.web_url).host}:${p.path_with_namespace}.git`;

export const hookUser = (u: UserRef | undefined, id: number | null) => ({
  id: u?.id ?? id,
  name: u?.name ?? null,
  username: u?.username ?? null,
  avatar_url: u?.avatar_url ?? null,
  email: "[REDACTED]",
});

/** The acting user as push and member payloads flatten it. */
export const flatUser = (u: UserRef | undefined, id: number) => ({
  user_id: id,
  user_name: u?.name ?? null,
  user_username: u?.username ?? null,
  user_email: "[REDACTED]",
  user_avatar: u?.avatar_url ?? null,
});

export const hookProject = (p: HookProject) => ({
  id: p.id,
  name: p.name,
  description: null,
  web_url: p.web_url,
  avatar_url: null,
  git_ssh_url: sshUrl(p),
  git_http_url: `${p.web_url}.git`,
  namespace: p.namespace_name,
  visibility_level: VISIBILITY_LEVEL[p.visibility] ?? 0,
  path_with_namespace: p.path_with_namespace,
  default_branch: p.default_branch,
  ci_config_path: null,
  homepage: p.web_url,
  url: sshUrl(p),
  ssh_url: sshUrl(p),
  http_url: `${p.web_url}.git`,
});

export const hookRepository = (p: HookProject) => ({
  name: p.name,
  url: sshUrl(p),
  description: null,
  homepage: p.web_url,
  git_http_url: `${p.web_url}.git`,
  git_ssh_url: sshUrl(p),
  visibility_level: VISIBILITY_LEVEL[p.visibility] ?? 0,
});
