import { AccessLevel, badRequestMessage, forbidden, validationFailed, visibilityLevel, type Caller, type Visibility } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import type { CreateGroupParams, UpdateGroupParams } from "@collab/namespaces-contract";
import { members, namespaces, projects, type NamespaceRow } from "../db/schema";
import { nameErrors, pathErrors, rubyInspect } from "../shared/paths";

/** GitLab answers group save failures with a string embedding Ruby's errors hash. */
const saveFailed = (errors: Record<string, string[]>) => badRequestMessage(`Failed to save group ${rubyInspect(errors)}`);

async function pathTaken(db: Db, fullPath: string, exceptId?: number) {
  const [hit] = await db.select({ id: namespaces.id }).from(namespaces).where(sql`lower(${namespaces.fullPath}) = lower(${fullPath})`);
  return hit !== undefined && hit.id !== exceptId;
}

function validateGroup(p: { name?: string; path?: string; visibility?: string }, parent: NamespaceRow | null, errors: Record<string, string[]>) {
  const add = (k: string, m: string[]) => m.length && (errors[k] = [...(errors[k] ?? []), ...m]);
  if (p.name !== undefined) add("name", nameErrors(p.name));
  if (p.path !== undefined) add("path", pathErrors(p.path));
  if (parent && p.visibility && visibilityLevel(p.visibility as Visibility) > visibilityLevel(parent.visibility as Visibility))
    add("visibility_level", [`${p.visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`]);
}

export async function createGroup(db: Db, caller: Caller, p: CreateGroupParams, parent: NamespaceRow | null): Promise<NamespaceRow> {
  const errors: Record<string, string[]> = {};
  validateGroup(p, parent, errors);
  const fullPath = parent ? `${parent.fullPath}/${p.path}` : p.path;
  if (!errors.path && (await pathTaken(db, fullPath))) errors.path = ["has already been taken"];
  if (Object.keys(errors).length) throw saveFailed(errors);

  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(namespaces)
      .values({
        kind: "group",
        name: p.name,
        path: p.path,
        parentId: parent?.id ?? null,
        fullPath,
        fullName: parent ? `${parent.fullName} / ${p.name}` : p.name,
        visibility: p.visibility ?? "private",
        description: p.description ?? "",
        projectCreationLevel: p.project_creation_level ?? "developer",
        subgroupCreationLevel: p.subgroup_creation_level ?? "maintainer",
        requestAccessEnabled: p.request_access_enabled ?? true,
        shareWithGroupLock: p.share_with_group_lock ?? false,
        requireTwoFactorAuthentication: p.require_two_factor_authentication ?? false,
        twoFactorGracePeriod: p.two_factor_grace_period ?? 48,
        lfsEnabled: p.lfs_enabled ?? true,
        emailsEnabled: p.emails_enabled ?? true,
        mentionsDisabled: p.mentions_disabled ?? false,
        autoDevopsEnabled: p.auto_devops_enabled ?? null,
        defaultBranch: p.default_branch ?? null,
      })
      .returning();
    const [group] = await tx
      .update(namespaces)
      .set({ traversalIds: [...(parent?.traversalIds ?? []), row.id] })
      .where(eq(namespaces.id, row.id))
      .returning();
    // The creator becomes an Owner member, as GitLab's Groups::CreateService does.
    await tx.insert(members).values({ sourceType: "Namespace", sourceId: group.id, userId: caller.id, accessLevel: AccessLevel.OWNER, createdById: caller.id });
    return group;
  });
}

/** A group may not become less visible than its own projects or subgroups (GitLab's Group validations). */
async function hierarchyVisibilityErrors(db: Db, group: NamespaceRow, visibility: Visibility): Promise<string[]> {
  const level = sql`(CASE visibility WHEN 'public' THEN 20 WHEN 'internal' THEN 10 ELSE 0 END)`;
  const wanted = visibilityLevel(visibility);
  const [projectHit] = await db.select({ id: projects.id }).from(projects).where(and(eq(projects.namespaceId, group.id), sql`${level} > ${wanted}`)).limit(1);
  const [groupHit] = await db
    .select({ id: namespaces.id })
    .from(namespaces)
    .where(sql`${namespaces.traversalIds} @> ARRAY[${group.id}]::int[] AND ${namespaces.id} <> ${group.id} AND ${level} > ${wanted}`)
    .limit(1);
  const errors: string[] = [];
  if (projectHit) errors.push(`${visibility} is not allowed since this group contains projects with higher visibility.`);
  if (groupHit) errors.push(`${visibility} is not allowed since there are sub-groups with higher visibility.`);
  return errors;
}

/** PUT /groups/:id: unlike creation, failures are a plain validation error hash. */
export async function updateGroup(db: Db, group: NamespaceRow, p: Omit<UpdateGroupParams, "id">): Promise<NamespaceRow> {
  const parent = group.parentId ? ((await db.select().from(namespaces).where(eq(namespaces.id, group.parentId)))[0] ?? null) : null;
  const errors: Record<string, string[]> = {};
  validateGroup(p, parent, errors);
  if (p.visibility !== undefined && p.visibility !== group.visibility) {
    const below = await hierarchyVisibilityErrors(db, group, p.visibility as Visibility);
    if (below.length) errors.visibility_level = [...(errors.visibility_level ?? []), ...below];
  }
  const newPath = p.path ?? group.path;
  const newFullPath = parent ? `${parent.fullPath}/${newPath}` : newPath;
  if (p.path !== undefined && !errors.path && (await pathTaken(db, newFullPath, group.id))) errors.path = ["has already been taken"];
  if (Object.keys(errors).length) throw validationFailed(errors);

  return db.transaction(async (tx) => {
    const newName = p.name ?? group.name;
    const newFullName = parent ? `${parent.fullName} / ${newName}` : newName;
    const [row] = await tx
      .update(namespaces)
      .set({
        name: newName,
        path: newPath,
        fullPath: newFullPath,
        fullName: newFullName,
        ...(p.description !== undefined && { description: p.description }),
        ...(p.visibility !== undefined && { visibility: p.visibility }),
        ...(p.project_creation_level !== undefined && { projectCreationLevel: p.project_creation_level }),
        ...(p.subgroup_creation_level !== undefined && { subgroupCreationLevel: p.subgroup_creation_level }),
        ...(p.request_access_enabled !== undefined && { requestAccessEnabled: p.request_access_enabled }),
        ...(p.share_with_group_lock !== undefined && { shareWithGroupLock: p.share_with_group_lock }),
        ...(p.require_two_factor_authentication !== undefined && { requireTwoFactorAuthentication: p.require_two_factor_authentication }),
        ...(p.two_factor_grace_period !== undefined && { twoFactorGracePeriod: p.two_factor_grace_period }),
        ...(p.lfs_enabled !== undefined && { lfsEnabled: p.lfs_enabled }),
        ...(p.emails_enabled !== undefined && { emailsEnabled: p.emails_enabled }),
        ...(p.mentions_disabled !== undefined && { mentionsDisabled: p.mentions_disabled }),
        ...(p.auto_devops_enabled !== undefined && { autoDevopsEnabled: p.auto_devops_enabled }),
        ...(p.default_branch !== undefined && { defaultBranch: p.default_branch }),
        updatedAt: new Date(),
      })
      .where(eq(namespaces.id, group.id))
      .returning();
    if (newFullPath !== group.fullPath || newFullName !== group.fullName) {
      // Descendants keep their own suffix under the renamed prefix.
      await tx.execute(sql`
        UPDATE ${namespaces} SET
          full_path = ${newFullPath} || substr(full_path, ${group.fullPath.length + 1}),
          full_name = ${newFullName} || substr(full_name, ${group.fullName.length + 1})
        WHERE traversal_ids @> ARRAY[${group.id}]::int[] AND id <> ${group.id}`);
    }
    return row;
  });
}

/** subgroup_creation_level / project_creation_level as the minimum role they require. */
export function creationRole(level: string): number {
  switch (level) {
    case "owner":
      return AccessLevel.OWNER;
    case "maintainer":
      return AccessLevel.MAINTAINER;
    case "developer":
      return AccessLevel.DEVELOPER;
    case "administrator":
      return AccessLevel.ADMIN;
    default:
      return Number.POSITIVE_INFINITY; // noone
  }
}

export function assertCanCreateIn(group: NamespaceRow, role: number, what: "subgroup" | "project") {
  const needed = creationRole(what === "subgroup" ? group.subgroupCreationLevel : group.projectCreationLevel);
  if (role < needed && role < AccessLevel.ADMIN) throw forbidden();
}
