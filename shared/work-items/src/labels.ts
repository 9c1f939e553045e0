import { call, type Ctx } from "@collab/core";
import { Namespaces, type LabelBasic, type LabelDetail } from "@collab/namespaces-contract";

/** LabelBasic, as issues and merge requests embed it with with_labels_details. */
export const labelBasic = (l: LabelBasic): LabelBasic => ({ id: l.id, name: l.name, color: l.color, text_color: l.text_color, description: l.description, description_html: l.description_html });

export async function labelMap(ctx: Ctx<unknown>, ids: Iterable<number>): Promise<Map<number, LabelDetail>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await call(ctx, Namespaces.labels.byIds, { ids: unique });
  return new Map(rows.map((l) => [l.id, l]));
}

/** Label ids for names on a project; unknown names become project labels when `create` is set. */
export const resolveLabels = (ctx: Ctx<unknown>, projectId: number, names: string[], create: boolean): Promise<LabelBasic[]> =>
  names.length ? call(ctx, Namespaces.labels.resolveForProject, { project_id: projectId, names, create_missing: create }) : Promise.resolve([]);

/** Label ids per exact title, among the labels of these projects (all projects: null) and their ancestor groups. */
export const labelIdsByTitles = (ctx: Ctx<unknown>, titles: string[], projectIds: number[] | null): Promise<Record<string, number[]>> =>
  titles.length ? call(ctx, Namespaces.labels.idsByTitles, { titles, project_ids: projectIds }) : Promise.resolve({});
