import { iso, type UserRef } from "@collab/core";
import type { Snippet, SnippetVisibility } from "@collab/snippets-contract";
import type { SnippetRow } from "../db/schema";
import type { SnippetFile } from "../storage/snippet-files";

/** Snippet repositories have one branch; raw file URLs name it. */
export const SNIPPET_REF = "main";

export interface SnippetContext {
  baseUrl: string;
  users: Map<number, UserRef>;
  /** Web URL and full path of the projects of project snippets. */
  projects: Map<number, { web_url: string; path_with_namespace: string }>;
  /** Administrators see repository_storage. */
  admin: boolean;
}

/** GitLab's Entities::ProjectSnippet / PersonalSnippet: URLs under the project's `-/snippets` or the instance's. */
export function presentSnippet(s: SnippetRow, files: SnippetFile[], c: SnippetContext): Snippet {
  const project = s.projectId === null ? undefined : c.projects.get(s.projectId);
  const web = `${project ? project.web_url : c.baseUrl}/-/snippets/${s.id}`;
  const host = new URL(c.baseUrl).host.split(":")[0];
  const repoPath = project ? `${project.path_with_namespace}/snippets/${s.id}` : `snippets/${s.id}`;
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility as SnippetVisibility,
    author: c.users.get(s.authorId)!,
    created_at: iso(s.createdAt)!,
    updated_at: iso(s.updatedAt)!,
    project_id: s.projectId,
    web_url: web,
    raw_url: `${web}/raw`,
    file_name: files[0]?.path ?? null,
    files: files.map((f) => ({ path: f.path, raw_url: `${web}/raw/${SNIPPET_REF}/${f.path.split("/").map(encodeURIComponent).join("/")}` })),
    ssh_url_to_repo: `git@${host}:${repoPath}.git`,
    http_url_to_repo: `${c.baseUrl}/${repoPath}.git`,
    imported: false,
    imported_from: "none",
    ...(c.admin ? { repository_storage: s.repositoryStorage } : {}),
  };
}
