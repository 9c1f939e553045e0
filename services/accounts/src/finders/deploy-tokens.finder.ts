import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, eq, gt, isNull, or, type SQL } from "drizzle-orm";
import type { ListDeployTokensFilters } from "@collab/accounts-contract";
import { deployTokens as dt, type DeployTokenRow } from "../db/schema";
import type { Holder } from "../domain/deploy-tokens";

/**
 * DeployTokens::TokensFinder: a project's, a group's or (administrators) every deploy token;
 * `active=true` keeps those neither revoked nor expired (false filters nothing, as GitLab).
 * Unsorted there, so pages come by id.
 */
export async function findDeployTokens(db: Db, holder: Holder | "all", p: ListDeployTokensFilters): Promise<{ rows: DeployTokenRow[]; total: number }> {
  const where: SQL[] = [];
  if (holder !== "all") where.push(holder.projectId !== undefined ? eq(dt.projectId, holder.projectId) : eq(dt.groupId, holder.groupId));
  if (p.active) where.push(and(eq(dt.revoked, false), or(isNull(dt.expiresAt), gt(dt.expiresAt, new Date())))!);
  const condition = where.length ? and(...where) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(dt).where(condition).orderBy(asc(dt.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(dt).where(condition),
  ]);
  return { rows, total };
}
