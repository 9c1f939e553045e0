import { call, errorBodyOf, implement, page, type Ctx, type ParamsOf } from "@collab/core";
import { authorizeProject } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { IssueBasicSchema, Issues } from "@collab/issues-contract";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Integrations } from "@collab/integrations-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { closingIssueRefs, mergeRequests, notes } from "./db/schema";
import { loadMergeRequest } from "./domain/load";
import { canReadMergeRequests, canSeeInternalNotes } from "./domain/permissions";
import { resolveIssueRefs } from "./merge-requests/input";
import { presentMergeRequests } from "./merge-requests/presentation";

const slice = <T>(items: T[], p: { page: number; per_page: number }) => items.slice((p.page - 1) * p.per_page, p.page * p.per_page);

/** The links between merge requests and the issues their descriptions close, both ways. */
export const closingIssueRoutesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** GET /projects/:id/merge_requests/:merge_request_iid/closes_issues: the issues the caller may read. */
  "closingIssues.closesIssues": implement(
    MergeRequests.closingIssues.closesIssues,
    async (ctx) => {
      const { access, mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      // An external issue tracker (GitLab's visible_closing_issues_for): only a merge request into the
      // default branch closes issues, and Jira's issues its closing statements name are listed too.
      const external = await call(ctx, Integrations.trackers.closingReferences, { project_id: access.project.id, group_ids: access.project.group_ids, texts: [mergeRequest.title, mergeRequest.description] });
      if (external.tracker) {
        const [project] = await call(ctx, Namespaces.projects.summaries, { ids: [access.project.id] });
        if (mergeRequest.targetBranch !== project?.default_branch) return page([], 0, ctx.params);
      }
      const refs = await kit.db
        .select()
        .from(closingIssueRefs)
        .where(and(eq(closingIssueRefs.mergeRequestId, mergeRequest.id), eq(closingIssueRefs.closes, true)));
      const issues = await call(ctx, Issues.mergeRequestLinks.readableIssues, {
        refs: refs.map((r) => ({ project_id: r.issueProjectId, iid: r.issueIid })),
        context_project_id: access.project.id,
      });
      const externalIssues = external.issues.map((key) => ({ title: `External Issue ${key}`, id: key }));
      // Paginated as one list, external issues first; each page shows GitLab's issues before the external ones.
      const shown = slice<(typeof issues)[number] | (typeof externalIssues)[number]>([...externalIssues, ...issues], ctx.params);
      const isExternal = (i: (typeof shown)[number]) => typeof i.id === "string";
      return page([...shown.filter((i) => !isExternal(i)), ...shown.filter(isExternal)], externalIssues.length + issues.length, ctx.params);
    },
    { visibility: "published" },
  ),

  /** GET /projects/:id/issues/:issue_iid/closed_by: merge requests closing the issue that the caller may read. */
  "closingIssues.closedBy": implement(MergeRequests.closingIssues.closedBy, (ctx) => referencingMergeRequests(kit, ctx, { closingOnly: true }), { visibility: "published" }),

  /** GET /projects/:id/issues/:issue_iid/related_merge_requests: those mentioning it too. */
  "closingIssues.relatedMergeRequests": implement(
    MergeRequests.closingIssues.relatedMergeRequests,
    (ctx) => referencingMergeRequests(kit, ctx, { closingOnly: false }),
    { visibility: "published" },
  ),

  /**
   * GET …/merge_requests/:merge_request_iid/related_issues: the issues its description references
   * (as saved), then those its title and the notes the caller may see name, that the caller may read.
   */
  "closingIssues.relatedIssues": implement(
    MergeRequests.closingIssues.relatedIssues,
    async (ctx) => {
      const { access, mergeRequest, actor } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const [saved, noted] = await Promise.all([
        kit.db.select().from(closingIssueRefs).where(eq(closingIssueRefs.mergeRequestId, mergeRequest.id)),
        kit.db
          .select({ body: notes.body })
          .from(notes)
          .where(and(eq(notes.noteableType, "MergeRequest"), eq(notes.noteableId, mergeRequest.id), canSeeInternalNotes(actor) ? undefined : eq(notes.internal, false)))
          .orderBy(asc(notes.createdAt), asc(notes.id)),
      ]);
      const named = await resolveIssueRefs(ctx, access.project, [mergeRequest.title, ...noted.map((n) => n.body)]);
      const refs = new Map([...saved.map((r) => ({ project_id: r.issueProjectId, iid: r.issueIid })), ...named.map((r) => ({ project_id: r.projectId, iid: r.iid }))].map((r) => [`${r.project_id}:${r.iid}`, r]));
      const issues = await call(ctx, Issues.mergeRequestLinks.readableIssues, { refs: [...refs.values()], context_project_id: access.project.id });
      // GitLab's IssueBasic: the issue list's entity without its links and extras (the schema strips them).
      return page(slice(issues, ctx.params).map((i) => IssueBasicSchema.parse(i)), issues.length, ctx.params);
    },
    { visibility: "published" },
  ),
});

/**
 * The merge requests whose description closes (or, unless `closingOnly`, mentions) the route's issue
 * and that the caller may read, newest first: the issue must be readable (the issues service answers its 404s).
 */
async function referencingMergeRequests(kit: ServiceKit, ctx: Ctx<ParamsOf<typeof MergeRequests.closingIssues.closedBy>>, o: { closingOnly: boolean }) {
  const issue = await call(ctx, Issues.mergeRequestLinks.readableIssue, { id: ctx.params.id, issue_iid: ctx.params.issue_iid });
  const links = await kit.db
    .select({ id: closingIssueRefs.mergeRequestId })
    .from(closingIssueRefs)
    .where(and(eq(closingIssueRefs.issueProjectId, issue.project_id), eq(closingIssueRefs.issueIid, issue.iid), o.closingOnly ? eq(closingIssueRefs.closes, true) : undefined));
  const rows = links.length ? await kit.db.select().from(mergeRequests).where(inArray(mergeRequests.id, links.map((l) => l.id))).orderBy(desc(mergeRequests.createdAt), desc(mergeRequests.id)) : [];
  const readable = await readableProjectIds(ctx, [...new Set(rows.map((r) => r.projectId))]);
  const visible = rows.filter((r) => readable.has(r.projectId));
  const items = await presentMergeRequests(kit, ctx, slice(visible, ctx.params), { context: { projectId: issue.project_id } });
  return page(items, visible.length, ctx.params);
}

/** Projects (of a few) whose merge requests the caller may read. */
async function readableProjectIds(ctx: Ctx<unknown>, ids: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        const access = await authorizeProject(ctx, id);
        if (canReadMergeRequests(access.project, access.role)) out.add(id);
      } catch (err) {
        if (errorBodyOf(err)?.status !== 404) throw err;
      }
    }),
  );
  return out;
}
