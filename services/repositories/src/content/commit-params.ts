import { badRequest, parseBoolean } from "@collab/core";
import type { CommitAction } from "@collab/git";
import type { CommitActionParam } from "@collab/repositories-contract";

const ACTIONS = ["create", "update", "move", "delete", "chmod"] as const;

/** What POST …/repository/commits needs, checked. */
export interface CommitRequest {
  branch: string;
  commit_message: string;
  actions: CommitAction[];
}

const blank = (v: string | undefined) => v === undefined || v.trim() === "";

/** One action, checked as GitLab's validate_commit_action! (its messages, action by action). */
function checkAction(a: CommitActionParam, i: number): CommitAction {
  const at = `actions[${i}]`;
  if (blank(a.action)) throw badRequest(`${at}[action] is required`);
  if (blank(a.file_path)) throw badRequest(`${at}[file_path] is required`);
  const action = a.action as CommitAction["action"];
  if (!ACTIONS.includes(action)) throw badRequest(`${at}[action] must be one of: ${ACTIONS.join(", ")}`);
  if (a.encoding !== undefined && a.encoding !== "text" && a.encoding !== "base64") throw badRequest(`${at}[encoding] must be text or base64`);
  if (action === "update" && a.content === undefined) throw badRequest(`${at}[content] is required for update action`);
  if (action === "move" && blank(a.previous_path)) throw badRequest(`${at}[previous_path] is required for move action`);
  let executeFilemode: boolean | undefined;
  if (a.execute_filemode !== undefined) {
    const parsed = parseBoolean(a.execute_filemode);
    if (typeof parsed !== "boolean") throw badRequest(`${at}[execute_filemode] must be a boolean`);
    executeFilemode = parsed;
  }
  if (action === "chmod" && executeFilemode === undefined) throw badRequest(`${at}[execute_filemode] is required for chmod action`);
  return {
    action,
    file_path: a.file_path!,
    ...(a.previous_path !== undefined ? { previous_path: a.previous_path } : {}),
    ...(a.content !== undefined ? { content: a.content } : {}),
    encoding: (a.encoding as "text" | "base64" | undefined) ?? "text",
    ...(executeFilemode !== undefined ? { execute_filemode: executeFilemode } : {}),
    ...(a.last_commit_id ? { last_commit_id: a.last_commit_id } : {}),
  };
}

/** GitLab's validate_commits_attrs!: required fields, exclusive starts, then each action. */
export function checkCommitRequest(p: { branch?: string; commit_message?: string; actions?: CommitActionParam[]; start_branch?: string; start_sha?: string }): CommitRequest {
  if (blank(p.branch)) throw badRequest("branch is required");
  if (blank(p.commit_message)) throw badRequest("commit_message is required");
  if (!p.actions?.length) throw badRequest("actions is required");
  if (p.start_branch !== undefined && p.start_sha !== undefined) throw badRequest("start_branch, start_sha are mutually exclusive");
  return { branch: p.branch!, commit_message: p.commit_message!, actions: p.actions.map(checkAction) };
}
