import { AccessLevel, iso, notFound, visibilityLevel, type Caller, type Visibility, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { labels, members, milestones, namespaces } from "../db/schema";
import { createLabel } from "../labels/labels";
import { groupAccessLevel } from "../members/access";
import { addMember } from "../members/members";
import { createMilestone, updateMilestone } from "../milestones/milestones";
import { broadcast } from "@collab/core";
import { findGroup } from "../shared/lookup";
import { userRefs, userRefsByUsername } from "../shared/users";
import { presentAttributes } from "./group-tree.entity";

import { closestAllowedVisibility, isRecordError, MEMBER_LEVELS, settingsOf } from "./group-tree";
import { createGroup, updateGroup } from "./groups";

/**
 * Bus-only actions for group export and import (services/import-export): the group tree and its
 * labels, milestones and members to export, and the writes an import makes on behalf of the
 * importer. The import-export service has already authorized the request; these trust it.
 * Batches are bounded so no message on the bus grows with the size of a group.
 */
export const groupTreeActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /** The group and its descendants, parents before children: what an export walks. */
    implement(Namespaces.groups.tree, async (ctx) => {
      const group = await findGroup(kit.db, ctx.params.group_id);
      if (!group) throw notFound("Group");
      const rows = await kit.db
        .select()
        .from(namespaces)
        .where(and(eq(namespaces.kind, "group"), sql`${namespaces.traversalIds} @> ARRAY[${group.id}]::int[]`))
        .orderBy(sql`cardinality(${namespaces.traversalIds})`, asc(namespaces.id));
      return rows.map((g) => ({
        id: g.id,
        parent_id: g.id === group.id ? null : g.parentId,
        full_path: g.fullPath,
        created_at: iso(g.createdAt),
        updated_at: iso(g.updatedAt),
        attributes: presentAttributes(g),
      }));
    }),

    /**
     * One page of a group's own labels, milestones or direct members (with usernames), by id after
     * `after`: an export reads each relation page by page, so no answer grows with the group.
     */
    implement(Namespaces.groups.relationPage, async (ctx) => {
      const { group_id: id, after, limit } = ctx.params;
      if (ctx.params.relation === "labels") {
        const rows = await kit.db.select().from(labels).where(and(eq(labels.groupId, id), gt(labels.id, after))).orderBy(asc(labels.id)).limit(limit);
        return rows.map((l) => ({ id: l.id, title: l.title, color: l.color, description: l.description, created_at: iso(l.createdAt), updated_at: iso(l.updatedAt) }));
      }
      if (ctx.params.relation === "milestones") {
        const rows = await kit.db.select().from(milestones).where(and(eq(milestones.groupId, id), gt(milestones.id, after))).orderBy(asc(milestones.id)).limit(limit);
        return rows.map((m) => ({
          id: m.id,
          iid: m.iid,
          title: m.title,
          description: m.description,
          state: m.state,
          due_date: m.dueDate,
          start_date: m.startDate,
          created_at: iso(m.createdAt),
          updated_at: iso(m.updatedAt),
        }));
      }
      const rows = await kit.db
        .select()
        .from(members)
        .where(and(eq(members.sourceType, "Namespace"), eq(members.sourceId, id), gt(members.id, after)))
        .orderBy(asc(members.id))
        .limit(limit);
      const refs = await userRefs(ctx, rows.map((m) => m.userId));
      // A member whose user is gone keeps its place in the paging (id) but has no username to export.
      return rows.map((m) => ({ id: m.id, user_id: m.userId, username: refs.get(m.userId)?.username ?? null, access_level: m.accessLevel, expires_at: m.expiresAt, created_at: iso(m.createdAt) }));
    }),

    /**
     * With `group_id`: applies the archive's settings to the imported group itself (its name, path
     * and visibility came from the request). With `parent_id`: creates a subgroup there, the
     * importer its Owner, at the archive's visibility capped by the parent's (GitLab's
     * sub_group_visibility_level). Failures answer as the group API would, failing the import.
     */
    implement(Namespaces.groups.createOrUpdateFromAttributes, async (ctx) => {
      const { attributes: a } = ctx.params;
      const caller: Caller = { id: ctx.params.importer.id, username: ctx.params.importer.username, admin: ctx.params.importer.admin };
      if (ctx.params.group_id !== undefined) {
        const group = await findGroup(kit.db, ctx.params.group_id);
        if (!group) throw notFound("Group");
        const settings = settingsOf(a);
        const updated = Object.keys(settings).length ? await updateGroup(kit.db, group, settings) : group;
        return { id: updated.id, full_path: updated.fullPath };
      }
      const parent = await findGroup(kit.db, ctx.params.parent_id!);
      if (!parent) throw notFound("Group");
      const wanted = a.visibility ?? "private";
      const visibility =
        visibilityLevel(wanted) > visibilityLevel(parent.visibility as Visibility) ? closestAllowedVisibility(parent.visibility as Visibility, caller.admin) : wanted;
      const group = await createGroup(kit.db, caller, { ...settingsOf(a), name: a.name ?? "", path: a.path ?? "", visibility }, parent);
      return { id: group.id, full_path: group.fullPath };
    }),

    /**
     * Adds labels, milestones and members to a restored group, at most RESTORE_BATCH of each per
     * call. A record the model refuses (a title the group already sees, an unknown user, a level not
     * above the inherited one) is skipped, as GitLab's importer records and skips failed relations.
     */
    implement(Namespaces.groups.addRelations, async (ctx) => {
      const group = await findGroup(kit.db, ctx.params.group_id);
      if (!group) throw notFound("Group");
      const counts = { labels: 0, milestones: 0, members: 0, skipped: 0 };
      const skip = (err: unknown) => {
        if (!isRecordError(err)) throw err;
        counts.skipped++;
      };

      for (const l of ctx.params.labels) {
        try {
          await createLabel(kit.db, { kind: "group", id: group.id, ancestorGroupIds: group.traversalIds }, { name: l.title, color: l.color, description: l.description });
          counts.labels++;
        } catch (err) {
          skip(err);
        }
      }

      const container = { kind: "group" as const, id: group.id };
      for (const m of ctx.params.milestones) {
        try {
          const row = await createMilestone(kit.db, container, { title: m.title, description: m.description, due_date: m.due_date, start_date: m.start_date });
          if (m.state === "closed") await updateMilestone(kit.db, container, row, { state_event: "close" });
          counts.milestones++;
        } catch (err) {
          skip(err);
        }
      }

      if (ctx.params.members.length) {
        const users = new Map((await userRefsByUsername(ctx, [...new Set(ctx.params.members.map((m) => m.username))])).map((u) => [u.username.toLowerCase(), u]));
        const parent = group.parentId ? await findGroup(kit.db, group.parentId) : undefined;
        const today = new Date().toISOString().slice(0, 10);
        const source = { type: "Namespace" as const, id: group.id, inheritedGroupIds: group.traversalIds.filter((id) => id !== group.id) };
        for (const m of ctx.params.members) {
          const user = users.get(m.username.toLowerCase());
          const usable =
            user !== undefined &&
            user.id !== ctx.params.importer.id &&
            user.state === "active" &&
            MEMBER_LEVELS.includes(m.access_level) &&
            (m.expires_at === null || m.expires_at >= today) &&
            (!parent || (await groupAccessLevel(kit.db, parent, user.id)) < m.access_level);
          if (!usable) {
            counts.skipped++;
            continue;
          }
          try {
            await addMember(kit.db, source, { id: ctx.params.importer.id, role: AccessLevel.ADMIN }, user.id, { access_level: m.access_level, ...(m.expires_at ? { expires_at: m.expires_at } : {}) });
            counts.members++;
          } catch (err) {
            skip(err);
          }
        }
        if (counts.members) broadcast(ctx, Namespaces.events.membersChanged, { groupId: group.id });
      }
      return counts;
    }),
  ]);
