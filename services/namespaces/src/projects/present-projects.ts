import type { Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { NamespaceRow, ProjectRow } from "../db/schema";
import { userRefs } from "../shared/users";
import { presentProject, presentProjectSimple } from "./project.entity";

type Rows = { project: ProjectRow; namespace: NamespaceRow }[];

/** Projects of a page with their personal-namespace owners, resolved in one accounts call. */
export async function presentProjects(kit: ServiceKit, ctx: Ctx<unknown>, rows: Rows): Promise<ReturnType<typeof presentProject>[]>;
/** With `simple`, BasicProjectDetails (no owners to resolve). */
export async function presentProjects(kit: ServiceKit, ctx: Ctx<unknown>, rows: Rows, simple: boolean | undefined): Promise<ReturnType<typeof presentProject>[] | ReturnType<typeof presentProjectSimple>[]>;
export async function presentProjects(kit: ServiceKit, ctx: Ctx<unknown>, rows: Rows, simple = false) {
  if (simple) return rows.map((r) => presentProjectSimple(r.project, r.namespace, kit.baseUrl));
  const owners = await userRefs(ctx, rows.filter((r) => r.namespace.kind === "user").map((r) => r.namespace.ownerId));
  return rows.map((r) => presentProject(r.project, r.namespace, kit.baseUrl, { owner: owners.get(r.namespace.ownerId ?? -1) ?? null }));
}
