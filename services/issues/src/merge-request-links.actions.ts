import { action, errorBodyOf, requireCaller, type Ctx, actionsOf, implement, type ParamsOf } from "@collab/core";
import type { ProjectAccess } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { and, eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { addSystemNote, recordStateEvent } from "@collab/notes";
import { issues, noteTables, type IssueRow } from "./db/schema";
import { loadIssue } from "./domain/load";
import { canUpdateIssue } from "./domain/permissions";
import { issueTarget } from "./domain/system-notes";
import { issueEvent } from "./domain/events";
import { presentIssues } from "./domain/presentation";

/** GitLab's wording: the short reference in the merge request's own project, the full one elsewhere. */
const closedVia = (issue: IssueRow, mr: ParamsOf<typeof Issues.mergeRequestLinks.closeIssues>["merge_request"]) =>
  `closed via merge request ${issue.projectId === mr.project_id ? `!${mr.iid}` : mr.reference}`;

/** An issue the caller may update, or null when it is missing or out of the caller's reach. */
async function updatableIssue(kit: ServiceKit, ctx: Ctx<unknown>, projectId: number, iid: number) {
  try {
    const loaded = await loadIssue(kit, ctx, projectId, iid);
    return canUpdateIssue(loaded.actor, loaded.issue) ? loaded.issue : null;
  } catch (err) {
    const status = errorBodyOf(err)?.status;
    if (status === 404 || status === 403) return null;
    throw err;
  }
}

/** What the merge-requests service asks of issues when a merge request is merged. */
export const mergeRequestLinksActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("issues", [
    /**
     * Closes the issues a merged merge request references with the closing pattern, as the merging
     * user (ctx.meta): each open issue the user may update is closed with its `closed` state event
     * and a "closed via merge request !N" system note, in one transaction per issue; the others are
     * skipped. Answers the ids closed.
     */
    implement(Issues.mergeRequestLinks.closeIssues, async (ctx) => {
      const caller = requireCaller(ctx);
      const closed: number[] = [];
      for (const ref of ctx.params.refs) {
        const issue = await updatableIssue(kit, ctx, ref.project_id, ref.iid);
        if (!issue || issue.state !== "opened") continue;
        const row = await kit.events.transact(async (tx) => {
          const now = new Date();
          const [updated] = await tx
            .update(issues)
            .set({ state: "closed", closedAt: now, closedById: caller.id, updatedAt: now, updatedById: caller.id })
            .where(and(eq(issues.id, issue.id), eq(issues.state, "opened")))
            .returning();
          if (!updated) return null;
          await recordStateEvent(tx, noteTables, { userId: caller.id, issueId: issue.id, state: "closed", createdAt: now });
          await addSystemNote(tx, noteTables, issueTarget(issue), caller.id, closedVia(issue, ctx.params.merge_request), now);
          return updated;
        }, (r) => (r ? [issueEvent(Issues.events.issueClosed, r, caller.id)] : []));
        if (!row) continue;
        closed.push(row.id);
      }
      return { closed };
    }),

    /**
     * The issues of `refs` the caller may read, presented as the issue list presents them (from the
     * merge request's project `context_project_id`): GitLab's closes_issues. Hidden projects and
     * issues are left out.
     */
    /** The issue a closed_by route names, with GET issue's 404s (loadIssue). */
    implement(Issues.mergeRequestLinks.readableIssue, async (ctx) => {
      const { access, issue } = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      return { project_id: access.project.id, iid: issue.iid };
    }),

    implement(Issues.mergeRequestLinks.readableIssues, async (ctx) => {
      const rows: IssueRow[] = [];
      const known: ProjectAccess["project"][] = [];
      for (const ref of ctx.params.refs) {
        try {
          const loaded = await loadIssue(kit, ctx, ref.project_id, ref.iid);
          rows.push(loaded.issue);
          if (!known.some((p) => p.id === loaded.access.project.id)) known.push(loaded.access.project);
        } catch (err) {
          const status = errorBodyOf(err)?.status;
          if (status !== 404 && status !== 403) throw err;
        }
      }
      return presentIssues(kit, ctx, rows, { context: { projectId: ctx.params.context_project_id }, knownProjects: known });
    }),
  ]);
