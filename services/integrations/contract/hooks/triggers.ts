/**
 * Webhook triggers (GitLab's WebHook scopes): the event flag a hook is set with, its log name
 * (`trigger` of a hook log, the scope) and the X-Gitlab-Event header its deliveries carry.
 * `levels` says which hooks have the flag: project hooks, group hooks (Premium+), or both.
 */
export interface TriggerDef {
  flag: string;
  scope: string;
  header: string;
  /** The flag's value when a hook is created without it. */
  default: boolean;
  levels: readonly ("project" | "group")[];
}

const both = ["project", "group"] as const;
const t = (flag: string, scope: string, header: string, levels: TriggerDef["levels"] = both, dflt = false): TriggerDef => ({ flag, scope, header, default: dflt, levels });

export const TRIGGERS: readonly TriggerDef[] = [
  t("push_events", "push_hooks", "Push Hook", both, true),
  t("tag_push_events", "tag_push_hooks", "Tag Push Hook"),
  t("issues_events", "issue_hooks", "Issue Hook"),
  t("confidential_issues_events", "confidential_issue_hooks", "Confidential Issue Hook"),
  t("note_events", "note_hooks", "Note Hook"),
  t("confidential_note_events", "confidential_note_hooks", "Confidential Note Hook"),
  t("merge_requests_events", "merge_request_hooks", "Merge Request Hook"),
  t("job_events", "job_hooks", "Job Hook"),
  t("pipeline_events", "pipeline_hooks", "Pipeline Hook"),
  t("wiki_page_events", "wiki_page_hooks", "Wiki Page Hook"),
  t("deployment_events", "deployment_hooks", "Deployment Hook"),
  t("feature_flag_events", "feature_flag_hooks", "Feature Flag Hook"),
  t("releases_events", "release_hooks", "Release Hook"),
  t("milestone_events", "milestone_hooks", "Milestone Hook"),
  t("emoji_events", "emoji_hooks", "Emoji Hook"),
  t("resource_access_token_events", "resource_access_token_hooks", "Resource Access Token Hook"),
  t("vulnerability_events", "vulnerability_hooks", "Vulnerability Hook"),
  t("member_events", "member_hooks", "Member Hook", ["group"]),
  t("subgroup_events", "subgroup_hooks", "Subgroup Hook", ["group"]),
  t("project_events", "project_hooks", "Project Hook", ["group"]),
];

export type HookLevel = "project" | "group";
export const triggersOf = (level: HookLevel) => TRIGGERS.filter((x) => x.levels.includes(level));
export const triggerByFlag = (flag: string) => TRIGGERS.find((x) => x.flag === flag);

/** The flags a hook has on: stored values over the defaults. */
export const hookFlags = (level: HookLevel, stored: Record<string, boolean>): Record<string, boolean> =>
  Object.fromEntries(triggersOf(level).map((x) => [x.flag, stored[x.flag] ?? x.default]));

/** The triggers POST …/hooks/:hook_id/test/:trigger takes (GitLab's lib/api/hooks/test.rb). */
export const TEST_TRIGGERS = [
  "push_events",
  "tag_push_events",
  "note_events",
  "issues_events",
  "confidential_issues_events",
  "merge_requests_events",
  "job_events",
  "pipeline_events",
  "wiki_page_events",
  "releases_events",
  "emoji_events",
  "resource_access_token_events",
] as const;

export const BRANCH_FILTER_STRATEGIES = ["wildcard", "regex", "all_branches"] as const;
