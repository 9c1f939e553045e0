/** Issues of epics (Premium and Ultimate): GitLab's ee/lib/api/epic_issues.rb. */
import { actionContract, pageOf } from "@collab/core";
import { z } from "zod";
import { EpicSchema } from "./epics";
import { IssueBasicSchema, IssueSchema } from "./issue";
import { AssignEpicIssueParams, EpicIssueRefParams, ListEpicIssuesParams, ReorderEpicIssueParams } from "./params/epics";

const int = () => z.number().int();

/** An issue of an epic (GitLab's EpicIssue entity): the issue with its association's id and place. */
export const EpicIssueSchema = IssueSchema.extend({ epic_issue_id: int(), relative_position: int().nullable() });
export type EpicIssue = z.output<typeof EpicIssueSchema>;

/** An association (GitLab's EpicIssueLink): its id and place, the epic, the issue as IssueBasic. */
export const EpicIssueLinkSchema = z.object({ id: int(), relative_position: int().nullable(), epic: EpicSchema, issue: IssueBasicSchema });
export type EpicIssueLink = z.output<typeof EpicIssueLinkSchema>;

export const EpicIssuesActions = {
  /** GET /groups/:id/epics/:epic_iid/issues: the issues the caller may read, in the epic's order. */
  list: actionContract("issues.epicIssues.list", { input: () => ListEpicIssuesParams, output: () => pageOf(EpicIssueSchema), idempotent: true }),
  /** POST /groups/:id/epics/:epic_iid/issues/:issue_id: the issue moves to this epic (from any other). */
  assign: actionContract("issues.epicIssues.assign", { input: () => AssignEpicIssueParams, output: () => EpicIssueLinkSchema }),
  /** PUT /groups/:id/epics/:epic_iid/issues/:epic_issue_id: reorders, answers the list. */
  reorder: actionContract("issues.epicIssues.reorder", { input: () => ReorderEpicIssueParams, output: () => pageOf(EpicIssueSchema) }),
  /** DELETE /groups/:id/epics/:epic_iid/issues/:epic_issue_id: the association removed (200). */
  remove: actionContract("issues.epicIssues.remove", { input: () => EpicIssueRefParams, output: () => EpicIssueLinkSchema }),
};
