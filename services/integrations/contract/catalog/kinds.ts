import { CHAT_KINDS } from "./chat";
import type { EventKind } from "./events";

/**
 * The integrations this service knows, by GitLab slug, with the parameters the spec's table gives
 * each kind (names, required flags, defaults) and the event booleans its set-up call accepts.
 * `secret` fields are write-only (GitLab's password fields and the chat webhook): stored, used,
 * never presented in `properties`.
 */
export type FieldType = "string" | "url" | "boolean" | { enum: readonly [string, ...string[]] };

export interface FieldDef {
  name: string;
  type: FieldType;
  required?: boolean;
  secret?: boolean;
  default?: string | boolean | null;
  /** A URL field that may be left blank (packagist's server). */
  allowBlank?: boolean;
}

export interface KindDef {
  slug: string;
  title: string;
  fields: FieldDef[];
  events: EventKind[];
  /** Apple App Store Connect has no group-level integration. */
  projectOnly?: boolean;
}

const BRANCHES = { enum: ["all", "default", "protected", "default_and_protected"] } as const;
const urls = (...names: string[]): FieldDef[] => names.map((name) => ({ name, type: "url", required: true }));

const tracker3 = (slug: string, title: string): KindDef => ({ slug, title, fields: urls("new_issue_url", "issues_url", "project_url"), events: [] });

export const KINDS: readonly KindDef[] = [
  {
    slug: "asana",
    title: "Asana",
    fields: [
      { name: "api_key", type: "string", required: true, secret: true },
      { name: "restrict_to_branch", type: "string", default: null },
    ],
    events: [],
  },
  {
    slug: "assembla",
    title: "Assembla",
    fields: [
      { name: "token", type: "string", required: true, secret: true },
      { name: "subdomain", type: "string", default: null },
    ],
    events: [],
  },
  {
    slug: "bamboo",
    title: "Atlassian Bamboo",
    fields: [
      { name: "ci_server_url", type: "url", required: true },
      { name: "enable_ssl_verification", type: "boolean", default: true },
      { name: "build_key", type: "string", required: true },
      { name: "username", type: "string", required: true },
      { name: "password", type: "string", required: true, secret: true },
    ],
    events: [],
  },
  tracker3("bugzilla", "Bugzilla"),
  tracker3("custom-issue-tracker", "Custom issue tracker"),
  tracker3("redmine", "Redmine"),
  tracker3("ewm", "EWM"),
  { slug: "youtrack", title: "JetBrains YouTrack", fields: urls("issues_url", "project_url"), events: [] },
  {
    slug: "buildkite",
    title: "Buildkite",
    fields: [
      { name: "token", type: "string", required: true, secret: true },
      { name: "project_url", type: "url", required: true },
      // Deprecated in GitLab and without effect: accepted and shown, never acted on.
      { name: "enable_ssl_verification", type: "boolean", default: true },
    ],
    events: ["push_events", "merge_requests_events", "tag_push_events"],
  },
  ...CHAT_KINDS,
  {
    slug: "mock-ci",
    title: "MockCI",
    fields: [
      { name: "mock_service_url", type: "url", required: true },
      { name: "enable_ssl_verification", type: "boolean", default: true },
    ],
    events: [],
  },
  {
    slug: "packagist",
    title: "Packagist",
    fields: [
      { name: "username", type: "string", required: true },
      { name: "token", type: "string", required: true, secret: true },
      { name: "server", type: "url", default: null, allowBlank: true },
    ],
    events: ["push_events", "merge_requests_events", "tag_push_events"],
  },
  {
    slug: "pipelines-email",
    title: "Pipeline status emails",
    fields: [
      { name: "recipients", type: "string", required: true },
      { name: "notify_only_broken_pipelines", type: "boolean", default: true },
      { name: "branches_to_be_notified", type: BRANCHES, default: "default" },
      { name: "notify_only_default_branch", type: "boolean", default: false },
    ],
    events: ["pipeline_events"],
  },
  {
    slug: "apple-app-store",
    title: "Apple App Store Connect",
    fields: [
      { name: "app_store_issuer_id", type: "string", required: true },
      { name: "app_store_key_id", type: "string", required: true },
      { name: "app_store_private_key_file_name", type: "string", required: true },
      { name: "app_store_private_key", type: "string", required: true, secret: true },
      { name: "app_store_protected_refs", type: "boolean", default: true },
    ],
    events: [],
    projectOnly: true,
  },
];

/**
 * Mock CI exists in GitLab's development environment only (it is not even registered elsewhere).
 * Here: offered unless NODE_ENV is "production"; in production its slug is as unknown as any other.
 */
const mockCiAvailable = () => process.env.NODE_ENV !== "production";

/** The slugs a set-up call accepts at this level. */
export function slugsFor(level: "project" | "group"): string[] {
  return KINDS.filter((k) => (level === "project" || !k.projectOnly) && (k.slug !== "mock-ci" || mockCiAvailable())).map((k) => k.slug);
}

export const kindOf = (slug: string): KindDef => {
  const kind = KINDS.find((k) => k.slug === slug);
  if (!kind) throw new Error(`unknown integration ${slug}`);
  return kind;
};
