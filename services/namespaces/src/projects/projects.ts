import { AccessLevel, ApiError, validationFailed, visibilityLevel, type Caller, type Visibility } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import type { CreateProjectParams, UpdateProjectParams } from "@collab/namespaces-contract";
import { members, projects, type NamespaceRow, type ProjectRow } from "../db/schema";
import { nameErrors, pathErrors, pathFromName } from "../shared/paths";

type Settings = Omit<UpdateProjectParams, "id" | "name" | "path">;

/** Feature toggles: the *_access_level wins over the older *_enabled booleans. */
function featureColumns(p: Settings): Partial<typeof projects.$inferInsert> {
  const level = (lvl: string | undefined, enabled: boolean | undefined) => lvl ?? (enabled === undefined ? undefined : enabled ? "enabled" : "disabled");
  const out: Partial<typeof projects.$inferInsert> = {};
  const set = (k: keyof typeof out, v: string | undefined) => v !== undefined && ((out as Record<string, unknown>)[k] = v);
  set("issuesAccessLevel", level(p.issues_access_level, p.issues_enabled));
  set("mergeRequestsAccessLevel", level(p.merge_requests_access_level, p.merge_requests_enabled));
  set("wikiAccessLevel", level(p.wiki_access_level, p.wiki_enabled));
  set("buildsAccessLevel", level(p.builds_access_level, p.jobs_enabled));
  set("snippetsAccessLevel", level(p.snippets_access_level, p.snippets_enabled));
  set("repositoryAccessLevel", p.repository_access_level);
  set("squashOption", p.squash_option);
  set("mergeMethod", p.merge_method);
  if (p.only_allow_merge_if_all_discussions_are_resolved !== undefined) out.onlyAllowMergeIfAllDiscussionsAreResolved = p.only_allow_merge_if_all_discussions_are_resolved;
  if (p.remove_source_branch_after_merge !== undefined) out.removeSourceBranchAfterMerge = p.remove_source_branch_after_merge;
  return out;
}

async function uniquenessErrors(db: Db, namespaceId: number, name: string, path: string, exceptId?: number) {
  const errors: Record<string, string[]> = {};
  const rows = await db
    .select({ id: projects.id, name: projects.name, path: projects.path })
    .from(projects)
    .where(and(eq(projects.namespaceId, namespaceId), sql`(lower(${projects.name}) = lower(${name}) OR lower(${projects.path}) = lower(${path}))`));
  for (const r of rows) {
    if (r.id === exceptId) continue;
    if (r.name.toLowerCase() === name.toLowerCase()) errors.name = ["has already been taken"];
    if (r.path.toLowerCase() === path.toLowerCase()) errors.path = ["has already been taken"];
  }
  return errors;
}

/** A project in a group may not be more visible than the group (GitLab's visibility_level_allowed_by_group). */
const allowedByGroup = (ns: NamespaceRow, visibility: string) =>
  ns.kind !== "group" || visibilityLevel(visibility as Visibility) <= visibilityLevel(ns.visibility as Visibility);

function visibilityErrors(ns: NamespaceRow, visibility: string): string[] {
  return allowedByGroup(ns, visibility) ? [] : [`${visibility} is not allowed in a ${ns.visibility} group.`];
}

function collect(errors: Record<string, string[]>, key: string, list: string[]) {
  if (list.length) errors[key] = [...(errors[key] ?? []), ...list];
}

/** Races on the unique indexes answer like the pre-checks. */
function mapUniqueViolation(err: unknown): never {
  // drizzle wraps driver errors in DrizzleQueryError, keeping the driver's error as `cause`.
  const e = ((err as { cause?: unknown })?.cause ?? err) as { code?: string; constraint?: string; message?: string };
  if (e.code === "23505") {
    const text = `${e.constraint ?? ""} ${e.message ?? ""}`;
    // "projects_namespace_path_lower_idx" contains "name" too (in "namespace"): match the column.
    throw validationFailed(text.includes("path_lower") ? { path: ["has already been taken"] } : { name: ["has already been taken"] });
  }
  throw err;
}

export async function createProject(db: Db, caller: Caller, ns: NamespaceRow, p: CreateProjectParams, requested: string): Promise<ProjectRow> {
  // On creation GitLab narrows a too-wide visibility to the group's instead of failing.
  const visibility = allowedByGroup(ns, requested) ? requested : ns.visibility;
  const name = p.name ?? p.path!;
  const path = p.path ?? pathFromName(name);
  const errors: Record<string, string[]> = {};
  collect(errors, "name", nameErrors(name));
  collect(errors, "path", pathErrors(path));
  if (!errors.name && !errors.path) Object.assign(errors, await uniquenessErrors(db, ns.id, name, path));
  if (Object.keys(errors).length) throw validationFailed(errors);

  const withReadme = p.initialize_with_readme === true;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(projects)
        .values({
          namespaceId: ns.id,
          name,
          path,
          description: p.description ?? null,
          visibility,
          defaultBranch: withReadme ? (p.default_branch ?? "main") : (p.default_branch ?? null),
          emptyRepo: !withReadme,
          creatorId: caller.id,
          topics: p.topics ?? p.tag_list ?? [],
          requestAccessEnabled: p.request_access_enabled ?? true,
          ...featureColumns(p),
        })
        .returning();
      // Personal projects belong to their namespace owner; in groups the creator keeps Maintainer
      // rights on what they created even if their group role is lower.
      const level = ns.kind === "user" ? AccessLevel.OWNER : AccessLevel.MAINTAINER;
      await tx.insert(members).values({ sourceType: "Project", sourceId: row.id, userId: ns.kind === "user" ? ns.ownerId! : caller.id, accessLevel: level, createdById: caller.id });
      return row;
    });
  } catch (err) {
    mapUniqueViolation(err);
  }
}

export async function updateProject(db: Db, project: ProjectRow, ns: NamespaceRow, p: Omit<UpdateProjectParams, "id">): Promise<ProjectRow> {
  const name = p.name ?? project.name;
  const path = p.path ?? project.path;
  const errors: Record<string, string[]> = {};
  if (p.name !== undefined) collect(errors, "name", nameErrors(name));
  if (p.path !== undefined) collect(errors, "path", pathErrors(path));
  if (!errors.name && !errors.path && (p.name !== undefined || p.path !== undefined)) Object.assign(errors, await uniquenessErrors(db, project.namespaceId, name, path, project.id));
  if (p.visibility !== undefined && p.visibility !== project.visibility) collect(errors, "visibility_level", visibilityErrors(ns, p.visibility));
  if (Object.keys(errors).length) throw validationFailed(errors);
  try {
    const [row] = await db
      .update(projects)
      .set({
        name,
        path,
        ...(p.description !== undefined && { description: p.description }),
        ...(p.visibility !== undefined && { visibility: p.visibility }),
        ...(p.default_branch !== undefined && { defaultBranch: p.default_branch }),
        ...((p.topics ?? p.tag_list) !== undefined && { topics: p.topics ?? p.tag_list }),
        ...(p.request_access_enabled !== undefined && { requestAccessEnabled: p.request_access_enabled }),
        ...featureColumns(p),
        updatedAt: new Date(),
      })
      .where(eq(projects.id, project.id))
      .returning();
    return row;
  } catch (err) {
    mapUniqueViolation(err);
  }
}

/**
 * Project#check_personal_projects_limit, as POST /projects answers it (`error!(errors[:limit_reached], 403)`):
 * 403 with the message in a one-element array.
 */
export function personalProjectsLimitReached(limit: number): ApiError {
  const message =
    limit === 0
      ? "You cannot create projects in your personal namespace. Contact your GitLab administrator."
      : `You've reached your limit of ${limit} projects created. Contact your GitLab administrator.`;
  return new ApiError(403, { message: [message] }, "FORBIDDEN");
}
