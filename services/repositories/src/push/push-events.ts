import { announce, type Announced } from "@collab/core";
import { gitText, type PushedRef } from "@collab/git";
import { Repositories, ZERO_SHA } from "@collab/repositories-contract";
import { BRANCH_PREFIX, TAG_PREFIX } from "./ref-checks";

/** GitLab's push data carries at most this many commits (the newest), with the total beside. */
export const PUSH_DATA_COMMITS_LIMIT = 20;

export interface Pusher {
  id: number;
  username: string;
}

export interface PushedProject {
  id: number;
  path_with_namespace: string;
}

interface PushCommit {
  id: string;
  message: string;
  title: string;
  timestamp: string;
  url: string;
  author: { name: string; email: string };
}

/** The refs' values now, to keep only the updates that really happened (receive-pack may refuse some). */
async function currentRefs(dir: string): Promise<Map<string, string>> {
  const out = await gitText(dir, ["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads", "refs/tags"]);
  return new Map(
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const at = line.indexOf(" ");
        return [line.slice(at + 1), line.slice(0, at)] as const;
      }),
  );
}

const SEP = "\x1f";
const END = "\x1e";

/** The commits of `range` (rev-list arguments), newest `limit` of them oldest first, and how many there are. */
async function commitsOf(dir: string, range: string[], urlOf: (sha: string) => string): Promise<{ commits: PushCommit[]; total: number }> {
  const total = Number((await gitText(dir, ["rev-list", "--count", ...range])).trim());
  if (!total) return { commits: [], total: 0 };
  const log = await gitText(dir, ["log", `-n${PUSH_DATA_COMMITS_LIMIT}`, `--format=%H${SEP}%an${SEP}%ae${SEP}%cI${SEP}%B${END}`, ...range]);
  const commits = log
    .split(END)
    .map((entry) => entry.replace(/^\n/, ""))
    .filter(Boolean)
    .map((entry) => {
      const [id, name, email, timestamp, message] = entry.split(SEP);
      return { id, message, title: message.split("\n")[0] ?? "", timestamp, url: urlOf(id), author: { name, email } };
    })
    .reverse();
  return { commits, total };
}

/**
 * The durable events of a push whose refs have moved: one `branch.pushed` or `tag.pushed` per
 * branch or tag that now has the value the push gave it. A new branch's commits are those no
 * other branch has; a moved branch's those between its old and new heads.
 */
export async function pushAnnouncements(dir: string, updates: PushedRef[], project: PushedProject, pusher: Pusher, baseUrl: string): Promise<Announced[]> {
  if (!updates.length) return [];
  const refs = await currentRefs(dir);
  const urlOf = (sha: string) => `${baseUrl}/${project.path_with_namespace}/-/commit/${sha}`;
  const out: Announced[] = [];
  for (const u of updates) {
    const now = refs.get(u.ref) ?? ZERO_SHA;
    if (now !== u.newSha) continue;
    const base = { projectId: project.id, ref: u.ref, before: u.oldSha, after: u.newSha, userId: pusher.id, userUsername: pusher.username };
    if (u.ref.startsWith(BRANCH_PREFIX)) {
      const branch = u.ref.slice(BRANCH_PREFIX.length);
      let range: string[] = [];
      if (u.newSha !== ZERO_SHA) {
        const others = [...refs.keys()].filter((r) => r.startsWith(BRANCH_PREFIX) && r !== u.ref).map((r) => refs.get(r)!);
        range = u.oldSha === ZERO_SHA ? [u.newSha, "--not", ...others] : [`${u.oldSha}..${u.newSha}`];
      }
      const { commits, total } = range.length ? await commitsOf(dir, range, urlOf) : { commits: [], total: 0 };
      const commitTitle = u.newSha === ZERO_SHA ? "" : (commits.at(-1)?.title ?? (await titleOf(dir, u.newSha)));
      out.push(announce(Repositories.events.branchPushed, { ...base, branch, commits, totalCommitsCount: total, commitCount: total, commitTitle }));
    } else if (u.ref.startsWith(TAG_PREFIX)) {
      const tag = u.ref.slice(TAG_PREFIX.length);
      // A tag's push data carries the commit it points at (peeled through an annotated tag).
      const { commits, total } = u.newSha === ZERO_SHA ? { commits: [], total: 0 } : await commitsOf(dir, ["-n1", `${u.newSha}^{commit}`], urlOf);
      out.push(announce(Repositories.events.tagPushed, { ...base, tag, commits, totalCommitsCount: total, commitTitle: commits[0]?.title ?? "" }));
    }
  }
  return out;
}

async function titleOf(dir: string, sha: string): Promise<string> {
  return (await gitText(dir, ["log", "-n1", "--format=%s", sha])).trim();
}
