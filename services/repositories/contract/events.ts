/** Durable domain events the repositories service publishes (written to its outbox once the refs moved). */
import { eventContract } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();
const sha = z.string().regex(/^[0-9a-f]{40}$/);

/** A commit as GitLab's push data carries it. */
export const PushCommitSchema = z.object({
  id: sha,
  message: z.string(),
  title: z.string(),
  timestamp: z.string(),
  url: z.string(),
  author: z.object({ name: z.string(), email: z.string() }),
});

/**
 * What both kinds of push carry. The names shared with namespaces' `branch.pushed` /
 * `tag.pushed` (projectId, before, after, userId, commitTitle, and branch or tag) have the same
 * meaning, so their consumers can switch over: 40 zeros as `before` mark a ref created, as
 * `after` a ref removed.
 */
const pushed = {
  projectId: id,
  /** The full ref: `refs/heads/main`, `refs/tags/v1`. */
  ref: z.string(),
  before: sha,
  after: sha,
  userId: id,
  userUsername: z.string(),
  /** The newest commits of the push, oldest first: at most 20, as GitLab's push data. */
  commits: z.array(PushCommitSchema).max(20),
  totalCommitsCount: z.number().int().min(0),
  /** The title of the commit the ref now points at ("" when removed). */
  commitTitle: z.string(),
};

export const RepositoriesEvents = {
  /** A branch head moved (created: `before` zeros; removed: `after` zeros) by a push. */
  branchPushed: eventContract("repositories.branch.pushed", () => z.object({ ...pushed, branch: z.string(), commitCount: z.number().int().min(0) })),
  /** A tag created, moved or removed by a push. */
  tagPushed: eventContract("repositories.tag.pushed", () => z.object({ ...pushed, tag: z.string() })),
};

export const ZERO_SHA = "0".repeat(40);
