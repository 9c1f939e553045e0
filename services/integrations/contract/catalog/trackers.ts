import { optional, required, secret, urls, type KindDef } from "./fields";

const tracker3 = (slug: string, title: string): KindDef => ({ slug, title, fields: urls("new_issue_url", "issues_url", "project_url"), events: [] });
const tracker2 = (slug: string, title: string): KindDef => ({ slug, title, fields: urls("issues_url", "project_url"), events: [] });

/** External issue trackers and project-management tools. */
export const TRACKER_KINDS: readonly KindDef[] = [
  tracker3("bugzilla", "Bugzilla"),
  tracker3("custom-issue-tracker", "Custom issue tracker"),
  tracker3("redmine", "Redmine"),
  tracker3("ewm", "EWM"),
  tracker2("youtrack", "JetBrains YouTrack"),
  tracker2("clickup", "ClickUp"),
  tracker2("phorge", "Phorge"),
  {
    slug: "jira",
    title: "Jira",
    fields: [
      { name: "url", type: "url", required: true },
      { name: "api_url", type: "url", default: null, allowBlank: true },
      optional("username"),
      secret("password"),
      // 0: basic (username and password or API token), 1: a Jira personal access token.
      { name: "jira_auth_type", type: "integer", default: 0 },
      optional("jira_issue_prefix"),
      optional("jira_issue_regex"),
      optional("jira_issue_transition_automatic", "boolean", false),
      optional("jira_issue_transition_id"),
      optional("issues_enabled", "boolean", false),
      { name: "project_keys", type: "list", default: null },
    ],
    events: ["commit_events", "merge_requests_events"],
    commentOnEvent: true,
  },
  {
    slug: "zentao",
    title: "ZenTao",
    fields: [{ name: "url", type: "url", required: true }, { name: "api_url", type: "url", default: null, allowBlank: true }, secret("api_token"), required("zentao_product_xid")],
    events: [],
  },
  {
    slug: "pivotaltracker",
    title: "Pivotal Tracker",
    fields: [secret("token"), optional("restrict_to_branch")],
    events: ["push_events"],
  },
];
