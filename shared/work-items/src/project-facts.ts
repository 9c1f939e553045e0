import { call, type Ctx } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { heldBesideAccess } from "./projects";

/**
 * What merge requests ask namespaces about the projects of a page, held in this process beside
 * the access.project answers and emptied by the same flush: members' access levels (changed only by
 * membership, group and project writes) and the protected branches a branch matches (changed only
 * by namespaces' protected-branch writes); never branch heads, which git pushes move. Every
 * namespaces write but labels, milestones and an issue write's input checks flushes every holder on every node before
 * it answers (namespaces, members/access-flush.ts), so a held answer is never older than the last
 * acknowledged change (a read that materialises a project's default protection flushes too);
 * nothing is held longer than 30 s.
 */
const levels = heldBesideAccess<number>();
const matching = heldBesideAccess<readonly number[]>();

/** A branch of a project as a key (the held maps' and the answers'): the id has no colon, so any branch name is unambiguous. */
export const headKey = (projectId: number, branch: string) => `${projectId}:${branch}`;

/** Access levels per project and user (0 for non-members): `levels.get(projectId)?.get(userId)`. */
export async function levelsOnProjects(ctx: Ctx<unknown>, wanted: Map<number, Set<number>>): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>();
  const pairs: { project_id: number; user_ids: number[] }[] = [];
  const holding = levels.held();
  for (const [projectId, users] of wanted) {
    if (!users.size) continue;
    const known = new Map<number, number>();
    out.set(projectId, known);
    const missing: number[] = [];
    for (const u of users) {
      const level = holding ? levels.cache.get(`${projectId}:${u}`) : undefined;
      if (level === undefined) missing.push(u);
      else known.set(u, level);
    }
    if (missing.length) pairs.push({ project_id: projectId, user_ids: missing });
  }
  if (!pairs.length) return out;
  const generation = levels.cache.generation();
  const answer = await call(ctx, Namespaces.access.levelsOnProjects, { pairs });
  for (const [p, users] of Object.entries(answer)) {
    const projectId = Number(p);
    const known = out.get(projectId) ?? new Map<number, number>();
    out.set(projectId, known);
    for (const [u, level] of Object.entries(users)) {
      known.set(Number(u), level);
      if (holding) levels.cache.set(`${projectId}:${u}`, level, generation);
    }
  }
  return out;
}

/** The ids of the protected branches each project's branch matches, in the order asked. */
export async function matchingProtectedBranches(ctx: Ctx<unknown>, pairs: { project_id: number; branch: string }[]): Promise<number[][]> {
  if (!pairs.length) return [];
  const holding = matching.held();
  const out: (readonly number[] | undefined)[] = pairs.map((p) => (holding ? matching.cache.get(headKey(p.project_id, p.branch)) : undefined));
  const missing = pairs.filter((_, i) => out[i] === undefined);
  if (missing.length) {
    const generation = matching.cache.generation();
    const answer = await call(ctx, Namespaces.protectedBranches.matching, { pairs: missing });
    let k = 0;
    pairs.forEach((p, i) => {
      if (out[i] !== undefined) return;
      const ids = Object.freeze(answer[k++] ?? []);
      out[i] = ids;
      if (holding) matching.cache.set(headKey(p.project_id, p.branch), ids, generation);
    });
  }
  return out.map((ids) => [...ids!]);
}
