import { CI_KINDS } from "./ci";
import type { KindDef } from "./fields";
import { OTHER_KINDS } from "./others";
import { TRACKER_KINDS } from "./trackers";

import { CHAT_KINDS } from "./chat";

export type { FieldDef, FieldType, KindDef } from "./fields";
export { flagsOf } from "./fields";

/**
 * The integrations this service knows, by GitLab slug (GitLab 18's catalogue), assembled from one
 * file per family: build servers (ci.ts), issue trackers (trackers.ts), chat notifiers and the rest.
 */
export const KINDS: readonly KindDef[] = [
  ...CI_KINDS,
  ...TRACKER_KINDS,
  ...OTHER_KINDS,
  ...CHAT_KINDS,
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
