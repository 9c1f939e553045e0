import { preparedQuery, rowFromJson, type Db } from "@collab/db";
import { eq, getTableColumns, sql } from "drizzle-orm";
import { labels, milestones, projects, type LabelRow, type MilestoneRow } from "../db/schema";
import { labelsWithTitlesQuery } from "../labels/labels.finder";
import { usersMemberLevelsQuery, type MemberLevelRow } from "../members/access";
import type { MilestoneWithPaths } from "../milestones/milestones.finder";
import { milestoneInScopeQuery } from "../milestones/milestones.finder";

type Json = Record<string, unknown>;

/**
 * What a work item write's input names, read in one statement on its project: the assignees'
 * member levels, the milestone in the project's scope and the labels with the given titles it
 * sees. Each part is its finder's own query (access, milestones, labels finders), answered as
 * JSON; a part not asked for gets empty placeholders and answers nothing.
 */
const inputStatement = preparedQuery((db: Db) =>
  db
    .select({
      levels: sql<Json[]>`(SELECT coalesce(json_agg(x), '[]'::json) FROM (${usersMemberLevelsQuery(db)}) x)`,
      milestone: sql<Json | null>`(SELECT row_to_json(x) FROM (${milestoneInScopeQuery(db)}) x)`,
      labels: sql<Json[]>`(SELECT coalesce(json_agg(x), '[]'::json) FROM (${labelsWithTitlesQuery(db)}) x)`,
    })
    .from(projects)
    .where(eq(projects.id, sql.placeholder("projectId")))
    .prepare("namespaces_work_item_input"),
);

export interface WorkItemInputQuery {
  projectId: number;
  /** The project namespace's traversal ids (member levels). */
  namespaceIds: number[];
  /** The project's ancestor groups (milestones and labels it sees). */
  groupIds: number[];
  userIds: number[];
  /** null: no milestone asked. */
  milestoneId: number | null;
  titles: string[];
}

export interface WorkItemInputRows {
  levels: MemberLevelRow[];
  milestone: MilestoneWithPaths | undefined;
  labels: LabelRow[];
}

const milestoneColumns = getTableColumns(milestones);
const labelColumns = getTableColumns(labels);

export async function findWorkItemInputRows(db: Db, q: WorkItemInputQuery): Promise<WorkItemInputRows> {
  const [row] = await inputStatement(db, {
    projectId: q.projectId,
    namespaceIds: q.namespaceIds,
    groupIds: q.groupIds,
    projectIds: [q.projectId],
    userIds: q.userIds,
    // No milestone has id 0: the part answers nothing.
    milestoneId: q.milestoneId ?? 0,
    titles: q.titles,
  });
  if (!row) return { levels: [], milestone: undefined, labels: [] };
  const m = row.milestone;
  return {
    levels: row.levels.map((l) => ({ userId: l.user_id as number, sourceType: l.source_type as string, level: l.level as number })),
    milestone: m ? { milestone: rowFromJson<MilestoneRow>(milestoneColumns, m), projectPath: (m.project_path as string | null) ?? null, groupPath: (m.group_path as string | null) ?? null } : undefined,
    labels: row.labels.map((l) => rowFromJson<LabelRow>(labelColumns, l)),
  };
}
