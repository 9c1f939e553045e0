import { callerOf, type Ctx } from "@collab/core";
import { preparedQuery, type Db, type ServiceKit } from "@collab/db";
import { asc, sql } from "drizzle-orm";
import { approvals, type ApprovalSettingsRow, type MergeRequestRow } from "../db/schema";
import { evaluate, ruleAppliesTo, type ApprovalPolicy, type Evaluation, type RuleLike } from "./compute";
import { groupUserIds, levelsOnProjects, matchingProtectedBranches } from "./remote";
import { mergeRequestRulesOf, projectRulesOf, type MergeRequestRule, type ProjectRule } from "./rules.store";
import { settingsOf } from "./settings";
import { approvalRulesAvailable } from "./tier";

/** A rule as the approval state evaluates it, project or merge-request level. */
export interface RuleView extends RuleLike {
  source: { kind: "project"; rule: ProjectRule } | { kind: "merge_request"; rule: MergeRequestRule } | { kind: "fallback" };
  userIds: number[];
  groupIds: number[];
}

export interface ApprovalState {
  mergeRequest: MergeRequestRow;
  settings: ApprovalSettingsRow;
  approvals: { userId: number; createdAt: Date }[];
  /** The merge request has its own rules, which replace the project's. */
  overridden: boolean;
  evaluation: Evaluation<RuleView>;
  policy: ApprovalPolicy;
}

const view = (source: RuleView["source"], r: { id: number; name: string; ruleType: string; approvalsRequired: number; userIds: number[]; groupIds: number[] }, members: Map<number, number[]>): RuleView => ({
  source,
  id: r.id,
  name: r.name,
  ruleType: r.ruleType,
  approvalsRequired: r.approvalsRequired,
  userIds: r.userIds,
  groupIds: r.groupIds,
  approverIds: [...new Set([...r.userIds, ...r.groupIds.flatMap((g) => members.get(g) ?? [])])],
});

const approvalsOf = preparedQuery((db: Db) =>
  db
    .select()
    .from(approvals)
    .where(sql`${approvals.mergeRequestId} = ANY(${sql.placeholder("ids")}::int[])`)
    .orderBy(asc(approvals.createdAt), asc(approvals.userId))
    .prepare("merge_requests_approvals_of"),
);

/**
 * The approval state of several merge requests with a fixed number of queries and bus calls:
 * settings, approvals, both kinds of rules, then one call each for protected branch matching,
 * group members and access levels. Below Premium no rules count: nothing is ever required.
 */
export async function approvalStates(kit: ServiceKit, ctx: Ctx<unknown>, rows: MergeRequestRow[]): Promise<Map<number, ApprovalState>> {
  const out = new Map<number, ApprovalState>();
  if (!rows.length) return out;
  const premium = approvalRulesAvailable(kit);
  const projectIds = [...new Set(rows.map((r) => r.projectId))];
  const mrIds = rows.map((r) => r.id);
  const [settings, given, mrRules, projectRules] = await Promise.all([
    settingsOf(kit.db, projectIds),
    approvalsOf(kit.db, { ids: mrIds }),
    premium ? mergeRequestRulesOf(kit.db, mrIds) : Promise.resolve([]),
    premium ? projectRulesOf(kit.db, projectIds) : Promise.resolve([]),
  ]);
  const caller = callerOf(ctx);
  const wanted = new Map<number, Set<number>>();
  for (const mr of rows) {
    const set = wanted.get(mr.projectId) ?? new Set<number>();
    set.add(mr.authorId);
    if (caller) set.add(caller.id);
    for (const a of given) if (a.mergeRequestId === mr.id) set.add(a.userId);
    wanted.set(mr.projectId, set);
  }
  // The three lookups need only the rows and rules above: one round of bus calls, not two.
  const scoped = projectRules.some((r) => r.appliesToAllProtectedBranches || r.protectedBranchIds.length);
  const [matching, members, levels] = await Promise.all([
    scoped ? matchingProtectedBranches(ctx, rows.map((r) => ({ project_id: r.projectId, branch: r.targetBranch }))) : Promise.resolve([] as number[][]),
    groupUserIds(ctx, [...mrRules, ...projectRules].flatMap((r) => r.groupIds)),
    levelsOnProjects(ctx, wanted),
  ]);
  // Administrators act above Owner everywhere (GitLab grants them every ability).
  if (caller?.admin) for (const p of projectIds) levels.set(p, new Map(levels.get(p) ?? []).set(caller.id, 60));

  rows.forEach((mr, i) => {
    const s = settings.get(mr.projectId)!;
    const own = mrRules.filter((r) => r.mergeRequestId === mr.id);
    let rules: RuleView[];
    if (own.length) rules = own.map((r) => view({ kind: "merge_request", rule: r }, r, members));
    else {
      const applicable = projectRules.filter((r) => r.projectId === mr.projectId && ruleAppliesTo(r, matching[i] ?? []));
      rules = applicable.map((r) => view({ kind: "project", rule: r }, r, members));
    }
    const fallback = mr.approvalsBeforeMerge ?? s.approvalsBeforeMerge;
    if (premium && !rules.length && fallback > 0) {
      rules = [view({ kind: "fallback" }, { id: 0, name: "All Members", ruleType: "any_approver", approvalsRequired: fallback, userIds: [], groupIds: [] }, members)];
    }
    const policy: ApprovalPolicy = {
      authorId: mr.authorId,
      // The repository model keeps no commit authorship by user: the author stands for the committers.
      committerIds: [mr.authorId],
      authorApproval: premium ? s.mergeRequestsAuthorApproval : true,
      committersDisabled: premium && s.mergeRequestsDisableCommittersApproval,
      levels: levels.get(mr.projectId) ?? new Map(),
    };
    const mine = given.filter((a) => a.mergeRequestId === mr.id);
    out.set(mr.id, {
      mergeRequest: mr,
      settings: s,
      approvals: mine.map((a) => ({ userId: a.userId, createdAt: a.createdAt })),
      overridden: own.length > 0,
      evaluation: evaluate(rules, mine.map((a) => a.userId), policy),
      policy,
    });
  });
  return out;
}
