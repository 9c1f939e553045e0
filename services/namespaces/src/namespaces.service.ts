import { AccessLevel, accepted, action, assertCanCreateTopLevelGroup, callerOf, forbidden, userLimits, gBool, gDateTime, notFound, page, recordNotFound, requireCaller, type Ctx, type UserRef } from "@collab/core";
import { defineService, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { z } from "zod";
import { CreateGroupParams, DeleteGroupParams, GroupRefParams, ListGroupsParams, ListSubgroupsParams, UpdateGroupParams } from "./api/groups.params";
import { AddMemberParams, ListMembersParams, MemberParams, RemoveMemberParams, UpdateMemberParams, type SourceKind } from "./api/members.params";
import { presentMember } from "./api/member.entity";
import { presentGroup, presentGroupDetail } from "./api/namespace.entity";
import { presentProject, presentProjectIdentity, presentProjectSimple, projectFullPath, projectWebUrl } from "./api/project.entity";
import { CreateProjectParams, DeleteProjectParams, ListGroupProjectsParams, ListProjectsParams, ProjectRefParams, UpdateProjectParams } from "./api/projects.params";
import type { NamespaceRow, ProjectRow } from "./db/schema";
import { groupAccessLevel, projectAccess, requireRole } from "./domain/access";
import { readableGroup, readableProject } from "./domain/authorize";
import { assertCanCreateIn, createGroup, deleteGroup, updateGroup } from "./domain/groups";
import { findGroup, findNamespace, findProject } from "./domain/lookup";
import { addMember, removeMember, removeUserEverywhere, updateMember } from "./domain/members";
import { createProject, deleteProject, personalProjectsLimitReached, updateProject } from "./domain/projects";
import { ensureUserNamespace, personalProjectsCount, syncUserNamespace, userNamespacePathAvailable } from "./domain/user-namespaces";
import { userRefs, userRefsByUsername } from "./domain/users";
import { descendantNamespaceIds, findGroups } from "./finders/groups.finder";
import { findMember, findMembers, memberUserIds, type MemberSource } from "./finders/members.finder";
import { findProjects } from "./finders/projects.finder";
import { projectsInternalActions } from "./projects-internal.actions";
import { issuesSupportActions } from "./issues-support.actions";
import { LABEL_MILESTONE_EVENTS, labelsAndMilestonesActions } from "./labels-milestones.actions";
import { storageInternalActions } from "./storage-internal.actions";
import { restrictedVisibilityErrors } from "./domain/visibility-settings";
import { currentSettings, settingsMixin } from "@collab/core";
import { refsActions } from "./refs.actions";
import { runnersSupportActions } from "./runners-support.actions";
import { importExportSupportActions } from "./import-export-support.actions";
import {
  adjournedDeletionAvailable,
  assertPermanentRemoval,
  markGroupForDeletion,
  markProjectForDeletion,
  purgeDue,
  restoreGroup,
  restoreProject,
  routeNotFound,
  utcDay,
} from "./domain/deletion";

export const NAMESPACES_EVENTS = {
  projectDeleted: "namespaces.project.deleted",
  /** `{ groupIds }`: a deleted group and all its subgroups (their projects each had projectDeleted). */
  groupDeleted: "namespaces.group.deleted",
  membersChanged: "namespaces.members.changed",
  ...LABEL_MILESTONE_EVENTS,
} as const;

/** The marked_for_deletion_on list filter is Premium (EE's finders ignore it otherwise). */
const withTierFilters = <T extends { marked_for_deletion_on?: string }>(kit: ServiceKit, p: T): T =>
  adjournedDeletionAvailable(kit.config) ? p : { ...p, marked_for_deletion_on: undefined };

/**
 * One adjourned-deletion purge pass (the timer and `deletions.purgeDue`): removes what is due and
 * tells other services, exactly as an immediate DELETE does.
 */
async function purgeDeletions(kit: ServiceKit, now: Date) {
  const { groupIds, projectIds, namespaceIds } = await purgeDue(kit.db, now, currentSettings().deletion_adjourned_period);
  for (const projectId of projectIds) await kit.broker.emit(NAMESPACES_EVENTS.projectDeleted, { projectId });
  if (namespaceIds.length) await kit.broker.emit(NAMESPACES_EVENTS.groupDeleted, { groupIds: namespaceIds });
  for (const groupId of groupIds) await kit.broker.broadcast(NAMESPACES_EVENTS.membersChanged, { groupId });
  return { group_ids: groupIds, project_ids: projectIds };
}


/** Projects of a page with their personal-namespace owners, resolved in one accounts call. */
async function presentProjects(kit: ServiceKit, ctx: Ctx<unknown>, rows: { project: ProjectRow; namespace: NamespaceRow }[], simple = false) {
  if (simple) return rows.map((r) => presentProjectSimple(r.project, r.namespace, kit.baseUrl));
  const owners = await userRefs(ctx, rows.filter((r) => r.namespace.kind === "user").map((r) => r.namespace.ownerId));
  return rows.map((r) => presentProject(r.project, r.namespace, kit.baseUrl, { owner: owners.get(r.namespace.ownerId ?? -1) ?? null }));
}

/** GroupDetail with the group's own projects, as PUT /groups/:id and POST /groups/:id/restore answer. */
async function presentGroupWithProjects(kit: ServiceKit, ctx: Ctx<unknown>, group: NamespaceRow) {
  const { rows } = await findProjects(kit.db, callerOf(ctx), ListProjectsParams.parse({ per_page: 100 }), { namespaceIds: [group.id] });
  return presentGroupDetail(group, await presentProjects(kit, ctx, rows), kit.baseUrl);
}

/** The group or project a members route addresses, with the caller's role on it. */
async function memberSource(kit: ServiceKit, ctx: Ctx<unknown>, kind: SourceKind, ref: string): Promise<{ source: MemberSource; role: number }> {
  if (kind === "projects") {
    const p = await readableProject(kit.db, ctx, ref);
    const inherited = p.namespace.kind === "group" ? p.namespace.traversalIds : [];
    return { source: { type: "Project", id: p.project.id, inheritedGroupIds: inherited }, role: p.role };
  }
  const g = await readableGroup(kit.db, ctx, ref);
  return { source: { type: "Namespace", id: g.group.id, inheritedGroupIds: g.group.traversalIds.filter((id) => id !== g.group.id) }, role: g.role };
}

/** Who may add, change or remove members: project Maintainers, group Owners. */
const manageMembersRole = (kind: SourceKind) => (kind === "projects" ? AccessLevel.MAINTAINER : AccessLevel.OWNER);

async function presentMembers(ctx: Ctx<unknown>, rows: { userId: number; createdById: number | null; accessLevel: number; expiresAt: string | null; createdAt: Date }[]) {
  const refs = await userRefs(ctx, rows.flatMap((r) => [r.userId, r.createdById]));
  return rows.filter((r) => refs.has(r.userId)).map((r) => presentMember(r, refs.get(r.userId)!, r.createdById ? (refs.get(r.createdById) ?? null) : null));
}

/** Everything another service needs to know about a project to authorize and present. */
const projectSummary = (kit: ServiceKit, project: ProjectRow, ns: NamespaceRow) => ({
  ...presentProjectIdentity(project, ns),
  namespace_id: ns.id,
  namespace_full_path: ns.fullPath,
  namespace_kind: ns.kind,
  group_ids: ns.kind === "group" ? ns.traversalIds : [],
  visibility: project.visibility,
  archived: project.archived,
  default_branch: project.defaultBranch,
  web_url: projectWebUrl(project, ns, kit.baseUrl),
  issues_access_level: project.issuesAccessLevel,
  merge_requests_access_level: project.mergeRequestsAccessLevel,
  builds_access_level: project.buildsAccessLevel,
  repository_storage: project.repositoryStorage,
  repository_read_only: project.repositoryReadOnly,
});

export const namespacesService: ServiceSchema = defineService({
  name: "namespaces",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts"],
  mixins: [settingsMixin],
  workers: (kit) => [{ name: "adjourned deletion purge", everyMs: kit.config.DELETION_PURGE_INTERVAL_MS, run: () => purgeDeletions(kit, new Date()) }],
  events: (kit) => ({
    async "accounts.user.created"(ctx: Ctx<{ userId: number; username: string; name: string }>) {
      await ensureUserNamespace(kit.db, { id: ctx.params.userId, username: ctx.params.username, name: ctx.params.name });
    },
    /**
     * Username or name changed: the personal namespace follows (its projects' paths with it). The
     * user is read back from accounts, so events applied out of order still end on the latest state.
     */
    async "accounts.user.updated"(ctx: Ctx<{ userId: number; username: string; name: string }>) {
      const [current] = (await userRefs(ctx, [ctx.params.userId])).values();
      if (!current) return; // deleted meanwhile
      await syncUserNamespace(kit.db, { id: current.id, username: current.username, name: current.name });
    },
    async "accounts.user.deleted"(ctx: Ctx<{ userId: number }>) {
      await removeUserEverywhere(kit.db, ctx.params.userId);
    },
  }),
  actions: (kit) => ({
    ...projectsInternalActions(kit),
    ...issuesSupportActions(kit),
    ...labelsAndMilestonesActions(kit),
    ...storageInternalActions(kit),
    ...refsActions(kit),
    ...runnersSupportActions(kit),
    ...importExportSupportActions(kit),

    // ---- groups -------------------------------------------------------------------------------
    "groups.list": action({
      idempotent: true,
      input: () => ListGroupsParams,
      async handler(ctx) {
        const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params));
        return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
      },
    }),

    "groups.subgroups": action({
      idempotent: true,
      input: () => ListSubgroupsParams,
      async handler(ctx) {
        const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
        const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { parentId: group.id });
        return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
      },
    }),

    "groups.descendants": action({
      idempotent: true,
      input: () => ListSubgroupsParams,
      async handler(ctx) {
        const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
        const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { descendantsOf: group.id });
        return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
      },
    }),

    "groups.get": action({
      idempotent: true,
      input: () => GroupRefParams.extend({ with_projects: z.stringbool().optional() }),
      async handler(ctx) {
        const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
        if (ctx.params.with_projects === false) return presentGroup(group, kit.baseUrl);
        const { rows } = await findProjects(kit.db, callerOf(ctx), ListProjectsParams.parse({ per_page: 100 }), { namespaceIds: [group.id] });
        return presentGroupDetail(group, await presentProjects(kit, ctx, rows), kit.baseUrl);
      },
    }),

    "groups.create": action({
      input: () => CreateGroupParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        let parent: NamespaceRow | null = null;
        if (ctx.params.parent_id !== undefined) {
          const p = await readableGroup(kit.db, ctx, ctx.params.parent_id);
          assertCanCreateIn(p.group, p.role, "subgroup");
          parent = p.group;
        } else {
          await assertCanCreateTopLevelGroup(ctx);
        }
        const visibility = ctx.params.visibility ?? (parent ? undefined : currentSettings().default_group_visibility);
        restrictedVisibilityErrors(caller, visibility ?? "private");
        const group = await createGroup(kit.db, caller, { ...ctx.params, visibility }, parent);
        return presentGroupDetail(group, [], kit.baseUrl);
      },
    }),

    "groups.update": action({
      input: () => UpdateGroupParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        const { id, ...changes } = ctx.params;
        const g = await readableGroup(kit.db, ctx, id);
        requireRole(g.role, AccessLevel.OWNER);
        if (changes.visibility !== undefined && changes.visibility !== g.group.visibility) restrictedVisibilityErrors(caller, changes.visibility);
        const group = await updateGroup(kit.db, g.group, changes);
        return presentGroupWithProjects(kit, ctx, group);
      },
    }),

    /**
     * With adjourned deletion (Premium) the group is marked and removed by the purge later;
     * `permanently_remove` with the group's `full_path` removes a marked group at once.
     */
    "groups.delete": action({
      input: () => DeleteGroupParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        const g = await readableGroup(kit.db, ctx, ctx.params.id);
        requireRole(g.role, AccessLevel.OWNER);
        if (adjournedDeletionAvailable(kit.config)) {
          if (!ctx.params.permanently_remove) {
            await markGroupForDeletion(kit.db, g.group, caller.id, utcDay(new Date()));
            return accepted();
          }
          assertPermanentRemoval("group", g.group.markedForDeletionOn, g.group.fullPath, ctx.params.full_path);
        }
        const { projectIds, namespaceIds } = await deleteGroup(kit.db, g.group);
        for (const projectId of projectIds) await ctx.emit(NAMESPACES_EVENTS.projectDeleted, { projectId });
        if (namespaceIds.length) await ctx.emit(NAMESPACES_EVENTS.groupDeleted, { groupIds: namespaceIds });
        await ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { groupId: g.group.id });
        return accepted();
      },
    }),

    "groups.restore": action({
      input: () => GroupRefParams,
      async handler(ctx) {
        if (!adjournedDeletionAvailable(kit.config)) throw routeNotFound();
        const g = await readableGroup(kit.db, ctx, ctx.params.id);
        requireRole(g.role, AccessLevel.OWNER);
        const group = await restoreGroup(kit.db, g.group);
        return presentGroupWithProjects(kit, ctx, group);
      },
    }),

    /** One adjourned-deletion purge pass (the timer runs the same); `now` defaults to the current time. */
    "deletions.purgeDue": action({
      visibility: "public",
      input: () => z.object({ now: gDateTime().optional() }),
      async handler(ctx) {
        return purgeDeletions(kit, ctx.params.now ?? new Date());
      },
    }),

    "groups.projects": action({
      idempotent: true,
      input: () => ListGroupProjectsParams,
      async handler(ctx) {
        const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
        const namespaceIds = ctx.params.include_subgroups ? await descendantNamespaceIds(kit.db, group.id) : [group.id];
        const { rows, total } = await findProjects(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { namespaceIds });
        return page(await presentProjects(kit, ctx, rows, ctx.params.simple), total, ctx.params);
      },
    }),

    // ---- projects -----------------------------------------------------------------------------
    "projects.list": action({
      idempotent: true,
      input: () => ListProjectsParams,
      async handler(ctx) {
        const { rows, total } = await findProjects(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params));
        return page(await presentProjects(kit, ctx, rows, ctx.params.simple), total, ctx.params);
      },
    }),

    "projects.get": action({
      idempotent: true,
      input: () => ProjectRefParams,
      async handler(ctx) {
        const p = await readableProject(kit.db, ctx, ctx.params.id);
        const [owners] = await Promise.all([userRefs(ctx, p.namespace.kind === "user" ? [p.namespace.ownerId] : [])]);
        const level = (l: number | null) => (l === null ? null : { access_level: l, notification_level: 3 });
        return presentProject(p.project, p.namespace, kit.baseUrl, {
          owner: owners.get(p.namespace.ownerId ?? -1) ?? null,
          permissions: { project_access: level(p.access.projectLevel), group_access: level(p.access.groupLevel) },
        });
      },
    }),

    "projects.create": action({
      input: () => CreateProjectParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        let ns: NamespaceRow;
        if (ctx.params.namespace_id === undefined) {
          ns = await ensureUserNamespace(kit.db, { id: caller.id, username: caller.username, name: caller.username });
        } else {
          const found = await findNamespace(kit.db, ctx.params.namespace_id);
          if (!found) throw notFound("Namespace");
          if (found.kind === "group") {
            const g = await readableGroup(kit.db, ctx, found.id, "Namespace");
            assertCanCreateIn(g.group, g.role, "project");
          } else if (found.ownerId !== caller.id && !caller.admin) {
            throw notFound("Namespace");
          }
          ns = found;
        }
        const visibility = ctx.params.visibility ?? currentSettings().default_project_visibility;
        restrictedVisibilityErrors(caller, visibility);
        if (ns.kind === "user") {
          // Project#check_personal_projects_limit: the creator's limit against the creator's own
          // personal projects (administrators included), whichever personal namespace it goes to.
          const { projects_limit } = await userLimits(ctx, caller.id);
          if ((await personalProjectsCount(kit.db, caller.id)) >= projects_limit) throw personalProjectsLimitReached(projects_limit);
        }
        const project = await createProject(kit.db, caller, ns, ctx.params, visibility);
        const owners = await userRefs(ctx, ns.kind === "user" ? [ns.ownerId] : []);
        return presentProject(project, ns, kit.baseUrl, { owner: owners.get(ns.ownerId ?? -1) ?? null });
      },
    }),

    "projects.update": action({
      input: () => UpdateProjectParams,
      async handler(ctx) {
        const { id, ...changes } = ctx.params;
        const p = await readableProject(kit.db, ctx, id);
        requireRole(p.role, AccessLevel.MAINTAINER);
        if (changes.visibility !== undefined && changes.visibility !== p.project.visibility) {
          requireRole(p.role, AccessLevel.OWNER);
          restrictedVisibilityErrors(requireCaller(ctx), changes.visibility);
        }
        const project = await updateProject(kit.db, p.project, p.namespace, changes);
        const owners = await userRefs(ctx, p.namespace.kind === "user" ? [p.namespace.ownerId] : []);
        return presentProject(project, p.namespace, kit.baseUrl, { owner: owners.get(p.namespace.ownerId ?? -1) ?? null });
      },
    }),

    /** Like groups.delete: marked with adjourned deletion, or removed at once (Free tier, `permanently_remove`). */
    "projects.delete": action({
      input: () => DeleteProjectParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        const p = await readableProject(kit.db, ctx, ctx.params.id);
        requireRole(p.role, AccessLevel.OWNER);
        if (adjournedDeletionAvailable(kit.config)) {
          if (!ctx.params.permanently_remove) {
            await markProjectForDeletion(kit.db, p.project, caller.id, utcDay(new Date()));
            return accepted();
          }
          assertPermanentRemoval("project", p.project.markedForDeletionAt, projectFullPath(p.project, p.namespace), ctx.params.full_path);
        }
        await deleteProject(kit.db, p.project);
        await ctx.emit(NAMESPACES_EVENTS.projectDeleted, { projectId: p.project.id });
        return accepted();
      },
    }),

    "projects.restore": action({
      input: () => ProjectRefParams,
      async handler(ctx) {
        if (!adjournedDeletionAvailable(kit.config)) throw routeNotFound();
        const p = await readableProject(kit.db, ctx, ctx.params.id);
        requireRole(p.role, AccessLevel.OWNER);
        const project = await restoreProject(kit.db, p.project);
        const owners = await userRefs(ctx, p.namespace.kind === "user" ? [p.namespace.ownerId] : []);
        return presentProject(project, p.namespace, kit.baseUrl, { owner: owners.get(p.namespace.ownerId ?? -1) ?? null });
      },
    }),

    // ---- members ------------------------------------------------------------------------------
    "members.list": action({
      idempotent: true,
      input: () => ListMembersParams.extend({ inherited: gBool().default(false) }),
      async handler(ctx) {
        const { source } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
        const inherited = ctx.params.inherited;
        let matchingUserIds: number[] | undefined;
        if (ctx.params.query) {
          const ids = await memberUserIds(kit.db, source, inherited);
          matchingUserIds = await ctx.call<number[], { ids: number[]; query: string }>("accounts.users.match", { ids, query: ctx.params.query });
        }
        const { rows, total } = await findMembers(kit.db, source, inherited, { userIds: ctx.params.user_ids, skipUsers: ctx.params.skip_users, matchingUserIds }, ctx.params);
        return page(await presentMembers(ctx, rows), total, ctx.params);
      },
    }),

    "members.get": action({
      idempotent: true,
      input: () => MemberParams.extend({ inherited: gBool().default(false) }),
      async handler(ctx) {
        const { source } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
        const member = await findMember(kit.db, source, ctx.params.user_id, ctx.params.inherited);
        const [presented] = member ? await presentMembers(ctx, [member]) : [];
        // GitLab looks the member up with find_by!: ActiveRecord's lower-case "404 Not found".
        if (!presented) throw recordNotFound();
        return presented;
      },
    }),

    "members.add": action({
      input: () => AddMemberParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        const { source, role } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
        requireRole(role, manageMembersRole(ctx.params.source));
        const user = await resolveUser(ctx, ctx.params.user_id, ctx.params.username);
        const member = await addMember(kit.db, source, { id: caller.id, role }, user.id, ctx.params);
        ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { userId: user.id });
        return (await presentMembers(ctx, [member]))[0];
      },
    }),

    "members.update": action({
      input: () => UpdateMemberParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        const { source, role } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
        requireRole(role, manageMembersRole(ctx.params.source));
        const member = await updateMember(kit.db, source, { id: caller.id, role }, ctx.params.user_id, ctx.params);
        ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { userId: member.userId });
        return (await presentMembers(ctx, [member]))[0];
      },
    }),

    "members.remove": action({
      input: () => RemoveMemberParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        const { source, role } = await memberSource(kit, ctx, ctx.params.source, ctx.params.id);
        if (caller.id !== ctx.params.user_id) requireRole(role, manageMembersRole(ctx.params.source));
        await removeMember(kit.db, source, { id: caller.id, role }, ctx.params.user_id);
        ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { userId: ctx.params.user_id });
        return null;
      },
    }),

    // ---- for other services -------------------------------------------------------------------
    /**
     * Accounts asks before renaming a user: is `path` free for that user's personal namespace (no
     * group or other user's namespace has it)? GitLab refuses the username otherwise.
     */
    "userNamespaces.pathAvailable": action({
      idempotent: true,
      visibility: "public",
      input: () => z.object({ path: z.string().min(1), user_id: z.number().int() }),
      async handler(ctx) {
        return { available: await userNamespacePathAvailable(kit.db, ctx.params.path, ctx.params.user_id) };
      },
    }),

    /** The project as the caller may see it, with their access: 404 when hidden, like the API. */
    "access.project": action({
      idempotent: true,
      visibility: "public",
      input: () => z.object({ project: z.union([z.string(), z.number()]) }),
      async handler(ctx) {
        const p = await readableProject(kit.db, ctx, ctx.params.project);
        return { project: projectSummary(kit, p.project, p.namespace), access_level: p.access.level, role: p.role };
      },
    }),

    "access.group": action({
      idempotent: true,
      visibility: "public",
      input: () => z.object({ group: z.union([z.string(), z.number()]) }),
      async handler(ctx) {
        const g = await readableGroup(kit.db, ctx, ctx.params.group);
        return { group: presentGroup(g.group, kit.baseUrl), traversal_ids: g.group.traversalIds, access_level: g.level, role: g.role };
      },
    }),

    /** "What access does user U have on project/group X": inheritance group → subgroup → project. */
    "access.level": action({
      idempotent: true,
      visibility: "public",
      input: () => z.object({ user_id: z.number().int(), project_id: z.number().int().optional(), group_id: z.number().int().optional() }),
      async handler(ctx) {
        if (ctx.params.project_id !== undefined) {
          const found = await findProject(kit.db, ctx.params.project_id);
          if (!found) throw notFound("Project");
          return { access_level: (await projectAccess(kit.db, found.project, found.namespace, ctx.params.user_id)).level };
        }
        if (ctx.params.group_id !== undefined) {
          const group = await findGroup(kit.db, ctx.params.group_id);
          if (!group) throw notFound("Group");
          return { access_level: await groupAccessLevel(kit.db, group, ctx.params.user_id) };
        }
        throw forbidden();
      },
    }),
  }),
});

async function resolveUser(ctx: Ctx<unknown>, userId: number | string | undefined, username: string | undefined): Promise<UserRef> {
  if (username !== undefined) {
    const [user] = await userRefsByUsername(ctx, [username]);
    if (!user) throw notFound("User");
    return user;
  }
  const id = Number(String(userId).split(",")[0]);
  const refs = await userRefs(ctx, [id]);
  const user = refs.get(id);
  if (!user) throw notFound("User");
  return user;
}
