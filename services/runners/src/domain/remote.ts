import { Accounts } from "@collab/accounts/contract";
import { call, type Ctx, type UserRef } from "@collab/core";

/** Everything this service asks other services, batch-shaped. */
export interface ProjectSummary {
  id: number;
  description: string | null;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
  created_at: string;
  web_url: string;
  group_ids: number[];
  visibility: string;
  default_branch: string | null;
}

export interface ProjectAccess {
  project: ProjectSummary;
  access_level: number;
  /** Effective role: 60 for administrators. */
  role: number;
}

export interface GroupAccess {
  group: { id: number; name: string; full_path: string; web_url: string };
  traversal_ids: number[];
  access_level: number;
  role: number;
}

export const projectAccess = (ctx: Ctx<unknown>, ref: string | number) =>
  ctx.call<ProjectAccess, { project: string | number }>("namespaces.access.project", { project: ref });

export const groupAccess = (ctx: Ctx<unknown>, ref: string | number) => ctx.call<GroupAccess, { group: string | number }>("namespaces.access.group", { group: ref });

/** The access level of any user on a project or group, whoever asks. */
export async function levelOf(ctx: Ctx<unknown>, userId: number, where: { project_id?: number; group_id?: number }): Promise<number> {
  try {
    const r = await ctx.call<{ access_level: number }, object>("namespaces.access.level", { user_id: userId, ...where });
    return r.access_level;
  } catch {
    return 0;
  }
}

/** Projects the caller is a member of, with their level. */
export const memberProjects = (ctx: Ctx<unknown>) =>
  ctx.call<{ all: boolean; projects: { id: number; access_level: number }[] }, { membership_only: boolean }>("namespaces.projects.readable", { membership_only: true });

/** Groups (subgroups included) where the caller has at least this level. */
export const groupsWithLevel = (ctx: Ctx<unknown>, min: number) =>
  ctx.call<{ id: number; access_level: number }[], { min_access_level: number }>("namespaces.access.callerGroups", { min_access_level: min });

export async function projectSummaries(ctx: Ctx<unknown>, ids: Iterable<number>): Promise<Map<number, { id: number; name: string; path: string; path_with_namespace: string; web_url: string }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await ctx.call<{ id: number; name: string; path: string; path_with_namespace: string; web_url: string }[], { ids: number[] }>("namespaces.projects.summaries", { ids: unique });
  return new Map(rows.map((p) => [p.id, p]));
}

export async function userMap(ctx: Ctx<unknown>, ids: Iterable<number | null | undefined>): Promise<Map<number, UserRef>> {
  const unique = [...new Set([...ids].filter((i): i is number => typeof i === "number"))];
  if (!unique.length) return new Map();
  const refs = await call(ctx, Accounts.users.refs, { ids: unique });
  return new Map(refs.map((u) => [u.id, u]));
}

export type RefResolution = { status: "ok"; kind: "branch" | "tag"; name: string; full_ref: string; sha: string } | { status: "missing" } | { status: "ambiguous" };

export const resolveRef = (ctx: Ctx<unknown> | { call: Ctx<unknown>["call"] }, projectId: number, ref: string) =>
  ctx.call<RefResolution, { project_id: number; ref: string }>("namespaces.refs.resolve", { project_id: projectId, ref });
