import { call, type Ctx } from "@collab/core";
import type { NotificationSourceKind as SourceKind } from "@collab/accounts-contract";
import type { SettingSource } from "./notification-levels";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * The group or project a notification-settings route names, as the caller may see it: the
 * namespaces service's access actions answer 404 Group / Project Not Found when it is hidden or
 * unknown (whatever the id looks like: a number, a path, out of range), so settings exist only for
 * sources the caller can read. Accounts never reads namespaces' tables.
 */
export async function authorizeSource(ctx: Ctx<unknown>, kind: SourceKind, ref: string): Promise<SettingSource & { type: "group" | "project" }> {
  if (kind === "projects") {
    const { project } = await call(ctx, Namespaces.access.project, { project: ref });
    return { type: "project", id: project.id };
  }
  const { group } = await call(ctx, Namespaces.access.group, { group: ref });
  return { type: "group", id: group.id };
}
