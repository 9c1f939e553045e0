import type { Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { MergeRequestRow } from "../db/schema";

/**
 * Approvals still needed per merge request id. Placeholder: the approvals module (approval rules
 * and approvals) replaces this body; until then nothing requires approval.
 */
export async function approvalsLeftFor(kit: ServiceKit, ctx: Ctx<unknown>, rows: MergeRequestRow[]): Promise<Map<number, number>> {
  void kit;
  void ctx;
  return new Map(rows.map((r) => [r.id, 0]));
}
