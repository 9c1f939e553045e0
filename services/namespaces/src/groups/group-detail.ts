import { callerOf, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { NamespaceRow } from "../db/schema";
import { presentProjects } from "../projects/present-projects";
import { findProjects } from "../projects/projects.finder";
import { ListProjectsParams } from "@collab/namespaces-contract";
import { presentGroupDetail } from "./group.entity";

/** GroupDetail with the group's own projects, as PUT /groups/:id and POST /groups/:id/restore answer. */
export async function presentGroupWithProjects(kit: ServiceKit, ctx: Ctx<unknown>, group: NamespaceRow) {
  const { rows } = await findProjects(kit.db, callerOf(ctx), ListProjectsParams.parse({ per_page: 100 }), { namespaceIds: [group.id] });
  return presentGroupDetail(group, await presentProjects(kit, ctx, rows), kit.baseUrl);
}
