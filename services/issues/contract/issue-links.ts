/** Links between issues: GitLab's lib/api/issue_links.rb. */
import { actionContract } from "@collab/core";
import { z } from "zod";
import { IssueBasicSchema, IssueSchema } from "./issue";
import { CreateIssueLinkParams, IssueLinkRefParams } from "./params/issue-links";
import { IssueRefParams } from "./params/issues";

const int = () => z.number().int();

/**
 * A linked issue (GitLab's RelatedIssue): the issue as the issue list shows it, without
 * `subscribed`, and the link seen from the route's issue (`is_blocked_by` when the other blocks it).
 */
export const RelatedIssueSchema = IssueSchema.extend({
  issue_link_id: int(),
  link_type: z.string(),
  link_created_at: z.string().nullable(),
  link_updated_at: z.string().nullable(),
});
export type RelatedIssue = z.output<typeof RelatedIssueSchema>;

/** A link as stored (GitLab's IssueLink entity): its two sides as IssueBasic and its type. */
export const IssueLinkSchema = z.object({ source_issue: IssueBasicSchema, target_issue: IssueBasicSchema, link_type: z.string() });
export type IssueLink = z.output<typeof IssueLinkSchema>;

export const IssueLinksActions = {
  /** GET …/links: the linked issues the caller may read, oldest link first (not paginated, as GitLab). */
  list: actionContract("issues.issueLinks.list", { input: () => IssueRefParams, output: () => z.array(RelatedIssueSchema), idempotent: true }),
  /** POST …/links: links the issue to target_project_id's target_issue_iid (201). */
  create: actionContract("issues.issueLinks.create", { input: () => CreateIssueLinkParams, output: () => IssueLinkSchema }),
  /** GET …/links/:issue_link_id: a link of this issue whose other side the caller may read. */
  get: actionContract("issues.issueLinks.get", { input: () => IssueLinkRefParams, output: () => IssueLinkSchema, idempotent: true }),
  /** DELETE …/links/:issue_link_id: the link removed (200, as it was). */
  remove: actionContract("issues.issueLinks.remove", { input: () => IssueLinkRefParams, output: () => IssueLinkSchema }),
};
