import { iso, textColorFor, type Ctx, type UserRef } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { Epic } from "@collab/issues-contract";
import { labelBasic, labelMap, userMap, type LabelDetail } from "@collab/work-items";
import type { EpicRow } from "../db/schema";
import type { EpicWithLabels } from "./epics.finder";
import { epicsByIds } from "./epics.finder";

/** What presenting a page of epics needs besides the rows. */
export interface EpicPresentation {
  baseUrl: string;
  /** Full paths of the epics' groups (and their parents' groups) by id. */
  groupPaths: Map<number, string>;
  /** The group the request names: references to its epics are relative ("&5"). */
  contextGroupId: number;
  users: Map<number, UserRef>;
  labels: Map<number, LabelDetail>;
  parents: Map<number, EpicRow>;
  withLabelsDetails: boolean;
  subscribed?: boolean;
}

/** An epic's start and due dates: the fixed ones when they count (no milestone inheritance here). */
export const epicDates = (epic: Pick<EpicRow, "startDateIsFixed" | "startDateFixed" | "dueDateIsFixed" | "dueDateFixed">) => ({
  start: epic.startDateIsFixed ? epic.startDateFixed : null,
  due: epic.dueDateIsFixed ? epic.dueDateFixed : null,
});

/** An epic as GitLab's EE::API::Entities::Epic presents it; dates are the fixed ones (no milestone inheritance here). */
export function presentEpic(epic: EpicWithLabels, p: EpicPresentation): Epic {
  const path = p.groupPaths.get(epic.groupId) ?? "";
  const parent = epic.parentId === null ? undefined : p.parents.get(epic.parentId);
  const labels = epic.labelIds
    .map((id) => p.labels.get(id))
    .filter((l): l is LabelDetail => l !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  const { start: startDate, due: dueDate } = epicDates(epic);
  const api = `${p.baseUrl}/api/v4/groups/${epic.groupId}`;
  return {
    id: epic.id,
    iid: epic.iid,
    color: epic.color,
    text_color: textColorFor(epic.color),
    group_id: epic.groupId,
    parent_id: epic.parentId,
    parent_iid: parent?.iid ?? null,
    title: epic.title,
    description: epic.description,
    confidential: epic.confidential,
    author: p.users.get(epic.authorId) ?? null,
    start_date: startDate,
    start_date_is_fixed: epic.startDateIsFixed,
    start_date_fixed: epic.startDateFixed,
    start_date_from_milestones: null,
    start_date_from_inherited_source: null,
    end_date: dueDate,
    due_date: dueDate,
    due_date_is_fixed: epic.dueDateIsFixed,
    due_date_fixed: epic.dueDateFixed,
    due_date_from_milestones: null,
    due_date_from_inherited_source: null,
    state: epic.state as Epic["state"],
    web_edit_url: `/groups/${path}/-/epics/${epic.iid}`,
    web_url: `${p.baseUrl}/groups/${path}/-/epics/${epic.iid}`,
    references: { short: `&${epic.iid}`, relative: epic.groupId === p.contextGroupId ? `&${epic.iid}` : `${path}&${epic.iid}`, full: `${path}&${epic.iid}` },
    created_at: iso(epic.createdAt)!,
    updated_at: iso(epic.updatedAt)!,
    closed_at: iso(epic.closedAt),
    labels: p.withLabelsDetails ? labels.map(labelBasic) : labels.map((l) => l.name),
    upvotes: epic.upvotes,
    downvotes: epic.downvotes,
    ...(p.subscribed === undefined ? {} : { subscribed: p.subscribed }),
    _links: {
      self: `${api}/epics/${epic.iid}`,
      epic_issues: `${api}/epics/${epic.iid}/issues`,
      group: api,
      parent: parent ? `${p.baseUrl}/api/v4/groups/${parent.groupId}/epics/${parent.iid}` : null,
    },
    imported: false,
    imported_from: "none",
  };
}

/** Presents a page of epics with a fixed number of lookups: parents, users and labels batched. */
export async function presentEpics(
  kit: ServiceKit,
  ctx: Ctx<unknown>,
  rows: EpicWithLabels[],
  o: { groupPaths: Map<number, string>; contextGroupId: number; withLabelsDetails?: boolean; subscribed?: boolean },
): Promise<Epic[]> {
  const [parents, users, labels] = await Promise.all([
    epicsByIds(kit.db, rows.map((r) => r.parentId).filter((id): id is number => id !== null)),
    userMap(ctx, rows.map((r) => r.authorId)),
    labelMap(ctx, rows.flatMap((r) => r.labelIds)),
  ]);
  const p: EpicPresentation = {
    baseUrl: kit.baseUrl,
    groupPaths: o.groupPaths,
    contextGroupId: o.contextGroupId,
    users,
    labels,
    parents: new Map(parents.map((e) => [e.id, e])),
    withLabelsDetails: o.withLabelsDetails ?? false,
    subscribed: o.subscribed,
  };
  return rows.map((r) => presentEpic(r, p));
}
