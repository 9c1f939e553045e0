import { call, type Ctx } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * The projects and groups that hold access tokens and deploy tokens live in the namespaces
 * service: accounts asks it, through its existing bus actions and as the caller, who may see a
 * project or group and with which role, and manages the bots' memberships the way the members API
 * does.
 */
export type ResourceType = "project" | "group";

/** The members routes' `source` for a resource type. */
export const sourceOf = (type: ResourceType) => (type === "project" ? "projects" : "groups");

export interface Resource {
  type: ResourceType;
  id: number;
  name: string;
  /** The caller's effective role on it: 60 for administrators. */
  role: number;
}

/** The project or group a route names, as the caller may see it: 404 {Project,Group} Not Found when hidden. */
export async function loadResource(ctx: Ctx<unknown>, type: ResourceType, ref: string | number): Promise<Resource> {
  if (type === "project") {
    const a = await call(ctx, Namespaces.access.project, { project: ref });
    return { type, id: a.project.id, name: a.project.name, role: a.role };
  }
  const g = await call(ctx, Namespaces.access.group, { group: ref });
  return { type, id: g.group.id, name: g.group.name, role: g.role };
}

/**
 * Makes the bot a direct member of the resource at `accessLevel` with the members API's own action,
 * on behalf of the caller (whose right to grant that level it checks again).
 */
export async function addBotMember(ctx: Ctx<unknown>, resource: Resource, botId: number, accessLevel: number): Promise<void> {
  await call(ctx, Namespaces.members.add, { source: sourceOf(resource.type), id: String(resource.id), user_id: botId, access_level: accessLevel });
}

/**
 * The bots' access levels on the resource (their direct memberships), one members-list call per
 * page of at most 100 bots. A bot without a membership is absent from the map.
 */
export async function botAccessLevels(ctx: Ctx<unknown>, resource: Pick<Resource, "type" | "id">, botIds: number[]): Promise<Map<number, number>> {
  const unique = [...new Set(botIds)];
  const levels = new Map<number, number>();
  for (let i = 0; i < unique.length; i += 100) {
    const ids = unique.slice(i, i + 100);
    const res = await call(ctx, Namespaces.members.list, {
      source: sourceOf(resource.type),
      id: String(resource.id),
      user_ids: ids,
      per_page: 100,
    });
    // Invitations (no user, id null) are not bots.
    for (const m of res.items) if (m.id !== null) levels.set(m.id, m.access_level);
  }
  return levels;
}
