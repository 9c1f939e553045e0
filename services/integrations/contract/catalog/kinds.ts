import { CI_KINDS } from "./ci";
import { BRANCHES, type KindDef } from "./fields";
import { OTHER_KINDS } from "./others";
import { TRACKER_KINDS } from "./trackers";

export type { FieldDef, FieldType, KindDef } from "./fields";

/**
 * The integrations this service knows, by GitLab slug (GitLab 18's catalogue), assembled from one
 * file per family: build servers (ci.ts), issue trackers (trackers.ts), chat notifiers and the rest.
 */
export const KINDS: readonly KindDef[] = [
  ...CI_KINDS,
  ...TRACKER_KINDS,
  ...OTHER_KINDS,
  {
    slug: "discord",
    title: "Discord Notifications",
    fields: [
      { name: "webhook", type: "url", required: true, secret: true },
      { name: "notify_only_broken_pipelines", type: "boolean", default: true },
      { name: "notify_only_default_branch", type: "boolean", default: false },
      { name: "branches_to_be_notified", type: BRANCHES, default: "default" },
    ],
    events: ["push_events", "issues_events", "confidential_issues_events", "merge_requests_events", "tag_push_events", "note_events", "confidential_note_events", "pipeline_events", "wiki_page_events"],
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
