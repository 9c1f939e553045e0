import type { Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { MergeRequestRow } from "../db/schema";
import { approvalStates } from "./state";

/**
 * approvals_left of each merge request (by id), for detailed_merge_status `not_approved`, the
 * merge check (405 while approvals are missing) and list filters. Batched: the same number of
 * queries and bus calls for one row or a page of them. Always 0 below Premium.
 */
export async function approvalsLeftFor(kit: ServiceKit, ctx: Ctx<unknown>, rows: MergeRequestRow[]): Promise<Map<number, number>> {
  const states = await approvalStates(kit, ctx, rows);
  return new Map([...states].map(([id, s]) => [id, s.evaluation.approvalsLeft]));
}
