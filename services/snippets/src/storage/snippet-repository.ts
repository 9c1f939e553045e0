import { Accounts } from "@collab/accounts-contract";
import { call, type Ctx } from "@collab/core";
import { onStorage, Repositories, type FileAction } from "@collab/repositories-contract";
import type { SnippetFileAction } from "@collab/snippets-contract";
import type { SnippetRow } from "../db/schema";
import type { SnippetFile } from "./snippet-files";

/**
 * A snippet's git repository (GitLab keeps one per snippet, on the snippet's storage): its files
 * committed on `main` by whoever wrote them. Called inside the snippet's transaction, after the
 * files table accepted the change: if git refuses, the snippet's change is not made either.
 */
const BRANCH = "main";

const container = (s: SnippetRow) => ({ container_kind: "snippet" as const, container_id: s.id });

async function authorOf(ctx: Ctx<unknown>) {
  const user = await call(ctx, Accounts.users.current, {});
  return { author_name: user.name, author_email: user.commit_email };
}

/** Creates a new snippet's repository with its files as the first commit ("Initial commit", as GitLab's). */
export async function createSnippetRepository(ctx: Ctx<unknown>, snippet: SnippetRow, files: SnippetFile[]): Promise<void> {
  const first_files = { files: files.map((f) => ({ file_path: f.path, content: f.content })), message: "Initial commit", ...(await authorOf(ctx)) };
  await call(
    ctx,
    Repositories.repositories.create,
    { ...container(snippet), storage: snippet.repositoryStorage, default_branch: BRANCH, first_files },
    onStorage(ctx, snippet.repositoryStorage),
  );
}

/** An update's file actions as git commit actions (an update without content changes nothing). */
export function commitActionsOf(actions: SnippetFileAction[]): FileAction[] {
  return actions.flatMap((a): FileAction[] => {
    const path = a.file_path ?? a.previous_path!;
    if (a.action === "update") return a.content === undefined ? [] : [{ action: "update", file_path: path, content: a.content }];
    if (a.action === "move") return [{ action: "move", file_path: path, previous_path: a.previous_path!, ...(a.content !== undefined && { content: a.content }) }];
    if (a.action === "delete") return [{ action: "delete", file_path: path }];
    return [{ action: "create", file_path: path, content: a.content ?? "" }];
  });
}

/** Commits an update's file actions to the snippet's repository ("Update snippet", as GitLab's). */
export async function commitSnippetChanges(ctx: Ctx<unknown>, snippet: SnippetRow, actions: SnippetFileAction[]): Promise<void> {
  const commitActions = commitActionsOf(actions);
  if (!commitActions.length) return;
  await call(
    ctx,
    Repositories.repositories.commit,
    { ...container(snippet), branch: BRANCH, message: "Update snippet", actions: commitActions, ...(await authorOf(ctx)) },
    onStorage(ctx, snippet.repositoryStorage),
  );
}
