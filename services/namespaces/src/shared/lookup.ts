import { recordId } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { namespaces, projects, type NamespaceRow, type ProjectRow } from "../db/schema";

/** A group or namespace by id when `ref` is numeric (an id no column holds matches nothing), else by full path. */
function byIdOrPath(ref: string | number) {
  const id = recordId(ref);
  if (id === null) return sql`false`;
  return id !== undefined ? eq(namespaces.id, id) : sql`lower(${namespaces.fullPath}) = lower(${String(ref)})`;
}

/** A group by numeric id or full path (case-insensitive), as GitLab's find_group. */
export async function findGroup(db: Db, ref: string | number): Promise<NamespaceRow | undefined> {
  const [row] = await db
    .select()
    .from(namespaces)
    .where(
      and(
        eq(namespaces.kind, "group"),
        byIdOrPath(ref),
      ),
    );
  return row;
}

export async function findNamespace(db: Db, ref: string | number): Promise<NamespaceRow | undefined> {
  const [row] = await db
    .select()
    .from(namespaces)
    .where(byIdOrPath(ref));
  return row;
}

export interface ProjectAndNamespace {
  project: ProjectRow;
  namespace: NamespaceRow;
}

/** The project-by-id lookup every issues request makes (access.project): a prepared statement. */
const projectById = preparedQuery((db: Db) =>
  db
    .select({ project: projects, namespace: namespaces })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(eq(projects.id, sql.placeholder("id")))
    .prepare("namespaces_project_by_id"),
);

/** A project by numeric id or "namespace/full/path/project". */
export async function findProject(db: Db, ref: string | number): Promise<ProjectAndNamespace | undefined> {
  const text = String(ref);
  const id = recordId(text);
  if (id === null) return undefined;
  if (id !== undefined) return (await projectById(db, { id }))[0];
  const cut = text.lastIndexOf("/");
  if (cut <= 0) return undefined;
  const where = and(sql`lower(${namespaces.fullPath}) = lower(${text.slice(0, cut)})`, sql`lower(${projects.path}) = lower(${text.slice(cut + 1)})`);
  const [row] = await db.select({ project: projects, namespace: namespaces }).from(projects).innerJoin(namespaces, eq(namespaces.id, projects.namespaceId)).where(where);
  return row;
}
