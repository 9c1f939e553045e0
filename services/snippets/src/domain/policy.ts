import { AccessLevel, type Caller } from "@collab/core";
import type { SnippetRow } from "../db/schema";

/**
 * GitLab's ProjectSnippetPolicy and PersonalSnippetPolicy. `role` is the caller's effective role
 * on the snippet's project (60 for administrators, 0 for non-members); personal snippets have none.
 */
export interface SnippetActor {
  caller: Caller | null;
  role: number;
}

const isAuthor = (a: SnippetActor, s: Pick<SnippetRow, "authorId">) => a.caller !== null && a.caller.id === s.authorId;

/** Public: anybody who reaches it; internal: signed-in users who are not external (and members); private: the author and project members. */
export function canReadSnippet(a: SnippetActor, s: Pick<SnippetRow, "authorId" | "visibility" | "projectId">): boolean {
  if (a.caller?.admin) return true;
  if (s.visibility === "public") return true;
  const member = s.projectId !== null && a.role >= AccessLevel.GUEST;
  if (isAuthor(a, s) || member) return true;
  return s.visibility === "internal" && a.caller !== null && !a.caller.external;
}

/** Project snippets are created by Reporters and above (GitLab's create_snippet). */
export const canCreateProjectSnippet = (a: SnippetActor) => a.caller !== null && a.role >= AccessLevel.REPORTER;

/** Editing or deleting: the author (still a Reporter on a project's), the project's Maintainers, administrators. */
export function canAdminSnippet(a: SnippetActor, s: Pick<SnippetRow, "authorId" | "projectId">): boolean {
  if (!a.caller) return false;
  if (a.caller.admin) return true;
  if (s.projectId === null) return isAuthor(a, s);
  return (isAuthor(a, s) && a.role >= AccessLevel.REPORTER) || a.role >= AccessLevel.MAINTAINER;
}
