import { type Ctx, type UserRef, call } from "@collab/core";
import { userMap } from "@collab/work-items";
import { Runners } from "@collab/runners-contract";
import type { PipelineInfo } from "../api/package.entity";

/** Pipelines by id from the runners service (one call), with their users from accounts (one call). */
export async function loadPipelines(ctx: Ctx<unknown>, ids: Iterable<number>): Promise<{ pipelines: Map<number, PipelineInfo>; users: Map<number, UserRef> }> {
  const unique = [...new Set(ids)];
  if (!unique.length) return { pipelines: new Map(), users: new Map() };
  const rows = await call(ctx, Runners.pipelines.byIds, { ids: unique });
  const users = await userMap(ctx, rows.map((p) => p.user_id));
  return { pipelines: new Map(rows.map((p) => [p.id, p])), users };
}
