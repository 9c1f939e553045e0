import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { iso, notFound, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import { namespaces, projects } from "../db/schema";
import { projectFullPath } from "../projects/project.entity";
import { namespaceWebUrl } from "../shared/namespace.entity";
import { findGroup, findProject } from "../shared/lookup";

/**
 * Bus-only actions for repository storage moves (services/admin): which storage a project or group
 * is on, which are on a storage, and the read-only flag a running move sets (issue and note writes
 * answer 403 meanwhile; see `repository_read_only` in the access.project summary).
 */
export const storageActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /** The storage and read-only flag of one project or group, by id or path: 404 as the API answers for an unknown one. */
    implement(Namespaces.storage.state, async (ctx) => {
      if (ctx.params.kind === "project") {
        const found = await findProject(kit.db, ctx.params.ref);
        if (!found) throw notFound("Project");
        return { id: found.project.id, repository_storage: found.project.repositoryStorage, repository_read_only: found.project.repositoryReadOnly };
      }
      const group = await findGroup(kit.db, ctx.params.ref);
      if (!group) throw notFound("Group");
      return { id: group.id, repository_storage: group.repositoryStorage, repository_read_only: group.repositoryReadOnly };
    }),

    /** Ids of the writable projects or groups on a storage (bulk moves). */
    implement(Namespaces.storage.writableIds, async (ctx) => {
      const { storage } = ctx.params;
      if (ctx.params.kind === "project") {
        const rows = await kit.db.select({ id: projects.id }).from(projects).where(and(eq(projects.repositoryStorage, storage), eq(projects.repositoryReadOnly, false))).orderBy(projects.id);
        return rows.map((r) => r.id);
      }
      const rows = await kit.db
        .select({ id: namespaces.id })
        .from(namespaces)
        .where(and(eq(namespaces.kind, "group"), eq(namespaces.repositoryStorage, storage), eq(namespaces.repositoryReadOnly, false)))
        .orderBy(namespaces.id);
      return rows.map((r) => r.id);
    }),

    /**
     * Sets the read-only flag (and, when a move is done, the new storage); returns the ids actually
     * changed. With `expect_writable` only writable rows change, so two moves never overlap. With
     * `locked_on` only rows read-only on that storage change: a move's switch, repeated after its
     * answer was lost, finds the row already switched and leaves it alone (the admin worker then
     * reads the state to tell a switched row from a vanished one).
     */
    implement(Namespaces.storage.setState, async (ctx) => {
      const { ids, read_only, storage, expect_writable, locked_on } = ctx.params;
      if (!ids.length) return [];
      const set = { repositoryReadOnly: read_only, ...(storage !== undefined && { repositoryStorage: storage }), updatedAt: new Date() };
      if (ctx.params.kind === "project") {
        const rows = await kit.db
          .update(projects)
          .set(set)
          .where(
            and(
              inArray(projects.id, ids),
              expect_writable ? eq(projects.repositoryReadOnly, false) : undefined,
              locked_on !== undefined ? and(eq(projects.repositoryReadOnly, true), eq(projects.repositoryStorage, locked_on)) : undefined,
            ),
          )
          .returning({ id: projects.id });
        return rows.map((r) => r.id);
      }
      const rows = await kit.db
        .update(namespaces)
        .set(set)
        .where(
          and(
            inArray(namespaces.id, ids),
            eq(namespaces.kind, "group"),
            expect_writable ? eq(namespaces.repositoryReadOnly, false) : undefined,
            locked_on !== undefined ? and(eq(namespaces.repositoryReadOnly, true), eq(namespaces.repositoryStorage, locked_on)) : undefined,
          ),
        )
        .returning({ id: namespaces.id });
      return rows.map((r) => r.id);
    }),

    /** What a storage move record embeds: the project ({id, description, name, …}) or group ({id, web_url, name}). */
    implement(Namespaces.storage.containers, async (ctx) => {
      const ids = [...new Set(ctx.params.ids)];
      if (!ids.length) return [];
      if (ctx.params.kind === "project") {
        const rows = await kit.db
          .select({ project: projects, namespace: namespaces })
          .from(projects)
          .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
          .where(inArray(projects.id, ids));
        return rows.map(({ project, namespace }) => ({
          id: project.id,
          description: project.description,
          name: project.name,
          name_with_namespace: `${namespace.fullName} / ${project.name}`,
          path: project.path,
          path_with_namespace: projectFullPath(project, namespace),
          created_at: iso(project.createdAt),
        }));
      }
      const rows = await kit.db.select().from(namespaces).where(and(inArray(namespaces.id, ids), eq(namespaces.kind, "group")));
      return rows.map((g) => ({ id: g.id, web_url: namespaceWebUrl(g, kit.baseUrl), name: g.name }));
    }),
  ]);
