import { callerOf, featureHidden, notFound, recordNotFound, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { IssueRow } from "../db/schema";
import { findIssueWithLinks } from "../finders/issues.finder";
import { canReadIssue, type IssueActor } from "./permissions";
import { authorizeProject, type ProjectAccess, type WorkItemInputAnswer, type WorkItemInputRequest } from "@collab/work-items";

export interface LoadedIssue {
  access: ProjectAccess;
  issue: IssueRow;
  actor: IssueActor;
  assigneeIds: number[];
  labelIds: number[];
  /** The epic it is in (null: none). */
  epicId: number | null;
  /** How many open issues it blocks (GitLab's blocking_issues_count), read with it. */
  blockingIssuesCount: number;
}

/**
 * The project, when its issues are readable by the caller (issues feature on, or private to
 * members); with `input`, an issue write's input checked in the same call.
 */
export async function issuesProject(ctx: Ctx<unknown>, ref: string | number, input?: WorkItemInputRequest): Promise<ProjectAccess & { issue_input?: WorkItemInputAnswer }> {
  const access = await authorizeProject(ctx, ref, input);
  if (featureHidden(access.project.issues_access_level, access.role)) throw notFound("Project");
  return access;
}

/** An issue the caller may read; 404 "Not found" for missing and hidden alike. */
export async function loadIssue(kit: ServiceKit, ctx: Ctx<unknown>, projectRef: string | number, iid: number, missing = recordNotFound): Promise<LoadedIssue> {
  const access = await issuesProject(ctx, projectRef);
  const found = await findIssueWithLinks(kit.db, access.project.id, iid);
  if (!found) throw missing();
  const { issue, assigneeIds, labelIds, epicId, blockingIssuesCount } = found;
  const caller = callerOf(ctx);
  const actor: IssueActor = { caller, role: access.role, assigned: caller !== null && assigneeIds.includes(caller.id) };
  if (!canReadIssue(actor, issue)) throw missing();
  return { access, issue, actor, assigneeIds, labelIds, epicId, blockingIssuesCount };
}
