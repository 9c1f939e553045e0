import { pickFields } from "@collab/core";
import { on, type Subscription } from "@collab/db";
import { Repositories, type MergeRequestGitState } from "@collab/repositories-contract";
import type { ServiceBroker } from "moleculer";
import { mergeRequestsOnBranch, refreshAfterPush } from "./domain/cleanup";
import { gitStates, writeMergeRequestRefs } from "./merge-requests/branches";

/** The repositories' mergeability call takes this many branch pairs at once. */
const PAIRS_PER_CALL = 100;

/**
 * Pushes (git, merges, rebases, branch API): the open merge requests on the pushed branch take
 * their new git state (see refreshAfterPush), and their refs/merge-requests/<iid>/ refs follow
 * once that has committed.
 */
export const repositoriesSubscriptions = (broker: () => ServiceBroker, warn: (err: Error) => void): Subscription[] => [
  on(Repositories.events.branchPushed, pickFields("projectId", "branch", "after", "userId"), async (p, tx, _event, afterCommit) => {
    const rows = await mergeRequestsOnBranch(tx, p.projectId, p.branch);
    if (!rows.length) return 0;
    const states: MergeRequestGitState[] = [];
    for (let i = 0; i < rows.length; i += PAIRS_PER_CALL) {
      const chunk = rows.slice(i, i + PAIRS_PER_CALL);
      states.push(...(await gitStates(broker(), p.projectId, chunk.map((r) => ({ source_branch: r.sourceBranch, target_branch: r.targetBranch })))));
    }
    const { merged } = await refreshAfterPush(tx, p, rows, states);
    const open = rows.map((r, i) => ({ iid: r.iid, id: r.id, state: states[i] })).filter((r) => !merged.includes(r.id));
    afterCommit(async () => {
      for (let i = 0; i < open.length; i += PAIRS_PER_CALL) await writeMergeRequestRefs(broker(), p.projectId, open.slice(i, i + PAIRS_PER_CALL), warn);
    });
    return rows.length;
  }),
];
