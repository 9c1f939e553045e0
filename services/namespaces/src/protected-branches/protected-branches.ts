import { conflict, flushAccessEverywhere, isUniqueViolation } from "@collab/core";
import { preparedQuery, type Db, type ServiceKit } from "@collab/db";
import { and, asc, eq, ilike, inArray, sql } from "drizzle-orm";
import { protectedBranchDefaults, protectedBranches, type ProjectRow, type ProtectedBranchRow } from "../db/schema";
import type { ProtectBranchInput } from "@collab/namespaces-contract";

/**
 * GitLab's default branch protection (fully protected: Maintainers push and merge): applied the
 * first time a project's protections are looked at, once, so a maintainer may unprotect it later.
 * A read may apply it: the holders of protected-branch matches are flushed then, as after any write.
 */
export async function ensureDefaultProtection(kit: ServiceKit, project: Pick<ProjectRow, "id" | "defaultBranch">): Promise<void> {
  if (!project.defaultBranch) return;
  const [fresh] = await kit.db.insert(protectedBranchDefaults).values({ projectId: project.id }).onConflictDoNothing().returning();
  if (!fresh) return;
  await kit.db.insert(protectedBranches).values({ projectId: project.id, name: project.defaultBranch }).onConflictDoNothing();
  await flushAccessEverywhere(kit.broker, "default branch protected");
}

export async function listProtectedBranches(db: Db, projectId: number, search?: string): Promise<ProtectedBranchRow[]> {
  const term = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return db
    .select()
    .from(protectedBranches)
    .where(and(eq(protectedBranches.projectId, projectId), term ? ilike(protectedBranches.name, term) : undefined))
    .orderBy(asc(protectedBranches.id));
}

export async function findProtectedBranch(db: Db, projectId: number, name: string): Promise<ProtectedBranchRow | undefined> {
  const [row] = await db.select().from(protectedBranches).where(and(eq(protectedBranches.projectId, projectId), eq(protectedBranches.name, name)));
  return row;
}

const protectionsOfProjects = preparedQuery((db: Db) =>
  db
    .select()
    .from(protectedBranches)
    .where(sql`${protectedBranches.projectId} = ANY(${sql.placeholder("projectIds")}::int[])`)
    .orderBy(asc(protectedBranches.id))
    .prepare("namespaces_protections_of"),
);

/** Protected branches of several projects at once (for batched callers): a prepared statement. */
export async function protectionsOf(db: Db, projectIds: number[]): Promise<ProtectedBranchRow[]> {
  if (!projectIds.length) return [];
  return protectionsOfProjects(db, { projectIds });
}

export async function protectBranch(db: Db, projectId: number, p: ProtectBranchInput): Promise<ProtectedBranchRow> {
  const exists = () => conflict(`Protected branch '${p.name}' already exists`);
  if (await findProtectedBranch(db, projectId, p.name)) throw exists();
  try {
    const [row] = await db
      .insert(protectedBranches)
      .values({
        projectId,
        name: p.name,
        pushAccessLevel: p.push_access_level ?? 40,
        mergeAccessLevel: p.merge_access_level ?? 40,
        unprotectAccessLevel: p.unprotect_access_level ?? 40,
        allowForcePush: p.allow_force_push ?? false,
        codeOwnerApprovalRequired: p.code_owner_approval_required ?? false,
      })
      .returning();
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw exists();
    throw err;
  }
}

export async function updateProtectedBranch(db: Db, row: ProtectedBranchRow, p: ProtectBranchInput): Promise<ProtectedBranchRow> {
  const [updated] = await db
    .update(protectedBranches)
    .set({
      pushAccessLevel: p.push_access_level ?? row.pushAccessLevel,
      mergeAccessLevel: p.merge_access_level ?? row.mergeAccessLevel,
      unprotectAccessLevel: p.unprotect_access_level ?? row.unprotectAccessLevel,
      allowForcePush: p.allow_force_push ?? row.allowForcePush,
      codeOwnerApprovalRequired: p.code_owner_approval_required ?? row.codeOwnerApprovalRequired,
    })
    .where(eq(protectedBranches.id, row.id))
    .returning();
  return updated;
}

export async function unprotectBranch(db: Db, id: number): Promise<void> {
  await db.delete(protectedBranches).where(eq(protectedBranches.id, id));
}

export const byIdsOfProject = (db: Db, projectId: number, ids: number[]) =>
  ids.length
    ? db.select().from(protectedBranches).where(and(eq(protectedBranches.projectId, projectId), inArray(protectedBranches.id, ids))).orderBy(asc(protectedBranches.id))
    : Promise.resolve([] as ProtectedBranchRow[]);
