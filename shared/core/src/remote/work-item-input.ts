import type { Ctx } from "../meta";
import { resolveLabels } from "./index";

export interface LabelParams {
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
}

/**
 * The label ids a work item ends up with after `labels` / `add_labels` / `remove_labels`, or
 * undefined when none was given. Unknown names in `labels` and `add_labels` become project
 * labels; then GitLab's order applies: replace first, then add, then remove.
 */
export async function buildLabelSet(ctx: Ctx<unknown>, projectId: number, p: LabelParams, currentIds: number[] = []): Promise<number[] | undefined> {
  if (p.labels === undefined && p.add_labels === undefined && p.remove_labels === undefined) return undefined;
  const [set, add] = await Promise.all([
    p.labels !== undefined ? resolveLabels(ctx, projectId, p.labels, true) : Promise.resolve(null),
    resolveLabels(ctx, projectId, p.add_labels ?? [], true),
  ]);
  // Only once labels and add_labels have created their missing labels: remove_labels may name them.
  const remove = await resolveLabels(ctx, projectId, p.remove_labels ?? [], false);
  const base = set ? set.map((l) => l.id) : currentIds;
  const removeIds = new Set(remove.map((l) => l.id));
  return [...new Set([...base, ...add.map((l) => l.id)])].filter((id) => !removeIds.has(id));
}
