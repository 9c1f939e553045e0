/** The params of the issue links routes (GitLab's lib/api/issue_links.rb). */
import { gEnum, gInt, gString } from "@collab/core";
import { z } from "zod";

/** Every type GitLab's API names; `blocks` and `is_blocked_by` are Premium and up (blocked_issues). */
export const ISSUE_LINK_TYPES = ["relates_to", "blocks", "is_blocked_by"] as const;
export type IssueLinkType = (typeof ISSUE_LINK_TYPES)[number];

export const CreateIssueLinkParams = z.object({
  id: gString(),
  issue_iid: gInt(),
  target_project_id: gString(),
  target_issue_iid: gInt(),
  link_type: gEnum(ISSUE_LINK_TYPES).default("relates_to"),
});
export type CreateIssueLinkParams = z.output<typeof CreateIssueLinkParams>;

export const IssueLinkRefParams = z.object({ id: gString(), issue_iid: gInt(), issue_link_id: gInt() });
export type IssueLinkRefParams = z.output<typeof IssueLinkRefParams>;
