/**
 * What travels in ctx.meta with every call: only who is calling.
 * Keep it tiny — it is serialized into every request packet on the bus.
 */
export interface Caller {
  id: number;
  username: string;
  admin: boolean;
  /** External users cannot see internal projects. */
  external?: boolean;
  bot?: boolean;
  /**
   * Set when a deploy token authenticated the request (only on routes that declare
   * `deployTokenScopes`): the caller is no user (id 0) but the token, which reaches only its own
   * project, or its group's projects and subgroups. Actions check that with `deployTokenReaches`.
   */
  deployToken?: DeployTokenCaller;
  /**
   * Set when a CI/CD job token authenticated the request (only on routes with `jobToken`): the
   * caller is the user who runs the job, with that user's roles, but the token reaches only the
   * job's own project. Actions check that with `requireJobTokenReach`.
   */
  job?: JobTokenCaller;
}

export interface JobTokenCaller {
  id: number;
  projectId: number;
  pipelineId: number;
}

export interface DeployTokenCaller {
  id: number;
  projectId: number | null;
  groupId: number | null;
  scopes: string[];
}

export interface Meta {
  caller?: Caller | null;
  /** The personal access token used, for /personal_access_tokens/self. */
  tokenId?: number;
  /**
   * On routes with `auth: "scim"`: the group whose SCIM token the request's bearer credential is,
   * null when it has none or an unknown one (the credential itself never travels further).
   */
  scimGroupId?: number | null;
}

import type { Context } from "moleculer";
import { forbidden, notFound, unauthorized } from "./errors";

export type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

export const callerOf = (ctx: Context<unknown, Meta>): Caller | null => ctx.meta?.caller ?? null;

/** The authenticated caller, or 401 for anonymous calls. */
export function requireCaller(ctx: Context<unknown, Meta>): Caller {
  const caller = callerOf(ctx);
  if (!caller) throw unauthorized();
  return caller;
}

/** Administrators only: 401 anonymous, 403 everybody else. */
export function requireAdmin(ctx: Context<unknown, Meta>): Caller {
  const caller = requireCaller(ctx);
  if (!caller.admin) throw forbidden();
  return caller;
}

/**
 * What a deploy token may reach (GitLab's DeployToken#has_access_to? / has_access_to_group?): a
 * project token its project only; a group token its group, the subgroups below it, and their
 * projects. `target.groupIds` are the target's ancestor groups, itself included for a group.
 * Callers that are no deploy token reach everything here (their membership decides elsewhere).
 */
export function deployTokenReaches(caller: Caller | null, target: { projectId?: number; groupIds: readonly number[] }): boolean {
  const token = caller?.deployToken;
  if (!token) return true;
  if (token.projectId !== null) return target.projectId === token.projectId;
  return token.groupId !== null && target.groupIds.includes(token.groupId);
}

/** 404 `{Project,Group} Not Found` when a deploy token asks for something outside its reach. */
export function requireDeployTokenReach(ctx: Context<unknown, Meta>, target: { projectId?: number; groupIds: readonly number[] }) {
  if (!deployTokenReaches(callerOf(ctx), target)) throw notFound(target.projectId !== undefined ? "Project" : "Group");
}

/** A job token reaches its job's project only; other callers reach everything here. */
export function jobTokenReaches(caller: Caller | null, projectId: number): boolean {
  const job = caller?.job;
  return !job || job.projectId === projectId;
}

/** 404 `Project Not Found` when a job token asks for another project than its job's. */
export function requireJobTokenReach(ctx: Context<unknown, Meta>, projectId: number) {
  if (!jobTokenReaches(callerOf(ctx), projectId)) throw notFound("Project");
}
