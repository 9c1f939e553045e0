import { runGit, type PushedRef } from "@collab/git";
import { ZERO_SHA } from "@collab/repositories-contract";
import { BRANCH_PREFIX } from "./ref-checks";

/**
 * The first push into an empty repository names its HEAD, as GitLab's does: while HEAD points at
 * no existing branch, it is pointed at the first branch the push created.
 */
export async function adoptFirstBranchAsHead(dir: string, updates: PushedRef[]): Promise<void> {
  const created = updates.find((u) => u.ref.startsWith(BRANCH_PREFIX) && u.oldSha === ZERO_SHA && u.newSha !== ZERO_SHA);
  if (!created) return;
  const { code } = await runGit(dir, ["rev-parse", "--verify", "-q", "HEAD"], { okCodes: [1] });
  if (code === 0) return;
  await runGit(dir, ["symbolic-ref", "HEAD", created.ref]);
}
