/**
 * GitLab's references of an issue (`#`) or merge request (`!`): short within its own project,
 * relative to the group a list was asked for, full otherwise.
 */
export interface ReferenceContext {
  projectId?: number;
  groupPath?: string;
}

export function workItemReferences(sigil: "#" | "!", iid: number, project: { id: number; path_with_namespace: string } | undefined, projectId: number, ctx: ReferenceContext) {
  const short = `${sigil}${iid}`;
  const full = `${project?.path_with_namespace ?? ""}${short}`;
  let relative = full;
  if (ctx.projectId === projectId) relative = short;
  else if (ctx.groupPath && project?.path_with_namespace.startsWith(`${ctx.groupPath}/`))
    relative = `${project.path_with_namespace.slice(ctx.groupPath.length + 1)}${short}`;
  return { short, relative, full };
}
