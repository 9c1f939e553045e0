import { Accounts, type UserRef } from "@collab/accounts-contract";
import { call, type Ctx } from "@collab/core";
import type { Caller } from "../deliveries/targets";
import { Issues, type IssueHookAttrs } from "@collab/issues-contract";
import { MergeRequests, type MergeRequestHookAttrs } from "@collab/merge-requests-contract";
import { Namespaces, type LabelHookAttrs, type MilestoneDetail } from "@collab/namespaces-contract";

/** What an event's webhook body shows as it is now, named by the event (read once per event, at fan-out). */
export interface HookRefs {
  userIds?: (number | null | undefined)[];
  issueIds?: number[];
  mergeRequestIds?: number[];
  labelIds?: number[];
  milestoneIds?: number[];
}

/** The objects the refs named, as their owners' contracts present them for hooks. */
export interface Enriched {
  users: Map<number, UserRef>;
  issues: Map<number, IssueHookAttrs>;
  mergeRequests: Map<number, MergeRequestHookAttrs>;
  labels: Map<number, LabelHookAttrs>;
  milestones: Map<number, MilestoneDetail>;
}

const ids = (list: (number | null | undefined)[] | undefined) => [...new Set((list ?? []).filter((id): id is number => typeof id === "number" && id > 0))];
const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/**
 * Reads what the refs name: issues and merge requests first (their labels, assignees and reviewers
 * are named by them), then labels, users and milestones; one call per kind, none for a kind not named.
 */
export async function enrich(broker: Caller | Ctx<unknown>, refs: HookRefs): Promise<Enriched> {
  const [issues, mergeRequests] = await Promise.all([
    ids(refs.issueIds).length ? call(broker, Issues.issues.hookAttrs, { ids: ids(refs.issueIds) }) : [],
    ids(refs.mergeRequestIds).length ? call(broker, MergeRequests.mergeRequests.hookAttrs, { ids: ids(refs.mergeRequestIds) }) : [],
  ]);
  const labelIds = ids([...(refs.labelIds ?? []), ...issues.flatMap((i) => i.label_ids), ...mergeRequests.flatMap((m) => m.label_ids)]);
  const userIds = ids([...(refs.userIds ?? []), ...issues.flatMap((i) => i.assignee_ids), ...mergeRequests.flatMap((m) => [...m.assignee_ids, ...m.reviewer_ids])]);
  const milestoneIds = ids(refs.milestoneIds);
  const [labels, users, milestones] = await Promise.all([
    labelIds.length ? call(broker, Namespaces.labels.hookAttrs, { ids: labelIds }) : [],
    userIds.length ? call(broker, Accounts.users.refs, { ids: userIds }) : [],
    milestoneIds.length ? call(broker, Namespaces.milestones.byIds, { ids: milestoneIds }) : [],
  ]);
  return { users: byId(users), issues: byId(issues), mergeRequests: byId(mergeRequests), labels: byId(labels), milestones: byId(milestones) };
}

/** Labels by id as hooks show them, in the order named; unknown ones (deleted since) left out. */
export const labelsOf = (e: Enriched, labelIds: readonly number[]) => labelIds.flatMap((id) => e.labels.get(id) ?? []);

/** Nothing read but these users (a build server's message built without its event's reads). */
export const withUsers = (users: UserRef[]): Enriched => ({ users: byId(users), issues: new Map(), mergeRequests: new Map(), labels: new Map(), milestones: new Map() });

/** The refs of facts with their acting user. */
export const refsWithActor = (refs: HookRefs, actorId: number | null): HookRefs => ({ ...refs, userIds: [actorId, ...(refs.userIds ?? [])] });
