import { AccessLevel, conflict, type Ctx, forbidden, implement, isUniqueViolation, page, recordNotFound, unprocessable } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Runners, type ProtectedEnvironmentEntryParam as Entry } from "@collab/runners-contract";
import { protectedEnvironmentEntries as entries, protectedEnvironments as envs, type ProtectedEnvironmentEntryRow, type ProtectedEnvironmentRow } from "./db/schema";
import { groupAccess, levelOf, userMap, type GroupAccess } from "./domain/remote";

const ROLE_DESCRIPTIONS: Record<number, string> = { 30: "Developers + Maintainers", 40: "Maintainers", 60: "Administrators" };

/** Premium and Ultimate only; a group Maintainer's business. */
async function managedGroup(kit: ServiceKit, ctx: Ctx<unknown>, ref: string): Promise<GroupAccess> {
  const g = await groupAccess(ctx, ref);
  if (kit.config.LICENSE_TIER === "free" || g.role < AccessLevel.MAINTAINER) throw forbidden();
  return g;
}

async function load(kit: ServiceKit, groupId: number, name: string): Promise<ProtectedEnvironmentRow> {
  const [row] = await kit.db.select().from(envs).where(and(eq(envs.groupId, groupId), eq(envs.name, name)));
  if (!row) throw recordNotFound();
  return row;
}

/** Every entry's rule checked; messages as ActiveRecord full messages of the association. */
async function entryErrors(ctx: Ctx<unknown>, g: GroupAccess, items: Entry[], label: string): Promise<string[]> {
  const errors: string[] = [];
  for (const e of items) {
    if (e._destroy) continue;
    const given = [e.access_level, e.user_id, e.group_id].filter((v) => v !== undefined).length;
    if (given !== 1 && e.id === undefined) {
      errors.push(`${label} must have exactly one of access_level, user_id or group_id`);
      continue;
    }
    if (e.access_level !== undefined && ![30, 40, 60].includes(e.access_level)) errors.push(`${label} access level is not included in the list`);
    if (e.user_id !== undefined && (await levelOf(ctx, e.user_id, { group_id: g.group.id })) < AccessLevel.MAINTAINER)
      errors.push(`${label} user must be a member of the group with Maintainer role or above`);
    if (e.group_id !== undefined) {
      const sub = await groupAccess(ctx, e.group_id).catch(() => null);
      if (!sub || sub.group.id === g.group.id || !sub.traversal_ids.includes(g.group.id)) errors.push(`${label} group must be a subgroup of the protected environment's group`);
    }
    if (e.required_approvals !== undefined && e.required_approvals < 1) errors.push(`${label} required approvals must be greater than 0`);
  }
  return errors;
}

const entryValues = (envId: number, kind: string, e: Entry) => ({
  protectedEnvironmentId: envId,
  kind,
  accessLevel: e.access_level ?? null,
  userId: e.user_id ?? null,
  groupId: e.group_id ?? null,
  groupInheritanceType: Number(e.group_inheritance_type ?? 0),
  requiredApprovals: e.required_approvals ?? 1,
});

async function present(ctx: Ctx<unknown>, kit: ServiceKit, rows: ProtectedEnvironmentRow[]) {
  const all = rows.length ? await kit.db.select().from(entries).where(inArray(entries.protectedEnvironmentId, rows.map((r) => r.id))).orderBy(asc(entries.id)) : [];
  const users = await userMap(ctx, all.map((e) => e.userId));
  const groupIds = [...new Set(all.map((e) => e.groupId).filter((i): i is number => i !== null))];
  const groups = new Map<number, string>();
  await Promise.all(groupIds.map((id) => groupAccess(ctx, id).then((g) => groups.set(id, g.group.name), () => undefined)));
  const describe = (e: ProtectedEnvironmentEntryRow) =>
    e.userId !== null ? (users.get(e.userId)?.name ?? "") : e.groupId !== null ? (groups.get(e.groupId) ?? "") : (ROLE_DESCRIPTIONS[e.accessLevel ?? 0] ?? "");
  const base = (e: ProtectedEnvironmentEntryRow) => ({
    id: e.id,
    access_level: e.accessLevel,
    access_level_description: describe(e),
    user_id: e.userId,
    group_id: e.groupId,
    group_inheritance_type: e.groupInheritanceType,
  });
  return rows.map((r) => ({
    name: r.name,
    deploy_access_levels: all.filter((e) => e.protectedEnvironmentId === r.id && e.kind === "deploy").map(base),
    required_approval_count: r.requiredApprovalCount,
    approval_rules: all.filter((e) => e.protectedEnvironmentId === r.id && e.kind === "approval").map((e) => ({ ...base(e), required_approvals: e.requiredApprovals })),
  }));
}

/** Applies nested entries: new ones created, `id` ones changed, `_destroy` ones removed. */
async function applyEntries(tx: ServiceKit["db"], envId: number, kind: string, items: Entry[]) {
  for (const e of items) {
    if (e.id === undefined) {
      if (!e._destroy) await tx.insert(entries).values(entryValues(envId, kind, e));
      continue;
    }
    const where = and(eq(entries.id, e.id), eq(entries.protectedEnvironmentId, envId), eq(entries.kind, kind));
    const [existing] = await tx.select().from(entries).where(where);
    if (!existing) throw recordNotFound();
    if (e._destroy) await tx.delete(entries).where(where);
    else {
      const changes: Partial<typeof entries.$inferInsert> = {};
      if (e.access_level !== undefined || e.user_id !== undefined || e.group_id !== undefined) {
        changes.accessLevel = e.access_level ?? null;
        changes.userId = e.user_id ?? null;
        changes.groupId = e.group_id ?? null;
      }
      if (e.group_inheritance_type !== undefined) changes.groupInheritanceType = Number(e.group_inheritance_type);
      if (e.required_approvals !== undefined) changes.requiredApprovals = e.required_approvals;
      if (Object.keys(changes).length) await tx.update(entries).set(changes).where(where);
    }
  }
}

export const protectedEnvironmentsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "protectedEnvironments.list": implement(
    Runners.protectedEnvironments.list,
    async (ctx) => {
      const g = await managedGroup(kit, ctx, ctx.params.id);
      const where = eq(envs.groupId, g.group.id);
      const [rows, [{ total }]] = await Promise.all([
        kit.db.select().from(envs).where(where).orderBy(asc(envs.name)).limit(ctx.params.per_page).offset((ctx.params.page - 1) * ctx.params.per_page),
        kit.db.select({ total: count() }).from(envs).where(where),
      ]);
      return page(await present(ctx, kit, rows), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "protectedEnvironments.get": implement(
    Runners.protectedEnvironments.get,
    async (ctx) => {
      const g = await managedGroup(kit, ctx, ctx.params.id);
      return (await present(ctx, kit, [await load(kit, g.group.id, ctx.params.name)]))[0];
    },
    { visibility: "published" },
  ),

  "protectedEnvironments.protect": implement(
    Runners.protectedEnvironments.protect,
    async (ctx) => {
      const g = await managedGroup(kit, ctx, ctx.params.id);
      const [existing] = await kit.db.select({ id: envs.id }).from(envs).where(and(eq(envs.groupId, g.group.id), eq(envs.name, ctx.params.name)));
      if (existing) throw conflict(`Protected environment '${ctx.params.name}' already exists`);
      const deploy = ctx.params.deploy_access_levels.filter((e) => !e._destroy);
      const rules = ctx.params.approval_rules ?? [];
      const errors = [
        ...(deploy.length === 0 ? ["Deploy access levels can't be blank"] : []),
        ...(await entryErrors(ctx, g, deploy.map((e) => ({ ...e, id: undefined })), "Deploy access levels")),
        ...(await entryErrors(ctx, g, rules.map((e) => ({ ...e, id: undefined })), "Approval rules")),
      ];
      if (errors.length) throw unprocessable(errors);
      try {
        const row = await kit.db.transaction(async (tx) => {
          const [env] = await tx.insert(envs).values({ groupId: g.group.id, name: ctx.params.name, requiredApprovalCount: ctx.params.required_approval_count ?? 0 }).returning();
          for (const e of deploy) await tx.insert(entries).values(entryValues(env.id, "deploy", { ...e, id: undefined }));
          for (const e of rules) if (!e._destroy) await tx.insert(entries).values(entryValues(env.id, "approval", { ...e, id: undefined }));
          return env;
        });
        return (await present(ctx, kit, [row]))[0];
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`Protected environment '${ctx.params.name}' already exists`);
        throw err;
      }
    },
    { visibility: "published" },
  ),

  "protectedEnvironments.update": implement(
    Runners.protectedEnvironments.update,
    async (ctx) => {
      const g = await managedGroup(kit, ctx, ctx.params.id);
      const env = await load(kit, g.group.id, ctx.params.name);
      const deploy = ctx.params.deploy_access_levels ?? [];
      const rules = ctx.params.approval_rules ?? [];
      const errors = [...(await entryErrors(ctx, g, deploy, "Deploy access levels")), ...(await entryErrors(ctx, g, rules, "Approval rules"))];
      if (errors.length) throw unprocessable(errors);
      await kit.db.transaction(async (tx) => {
        await applyEntries(tx, env.id, "deploy", deploy);
        await applyEntries(tx, env.id, "approval", rules);
        const [{ n }] = await tx.select({ n: count() }).from(entries).where(and(eq(entries.protectedEnvironmentId, env.id), eq(entries.kind, "deploy")));
        if (n === 0) throw unprocessable(["Deploy access levels can't be blank"]);
        if (ctx.params.required_approval_count !== undefined) await tx.update(envs).set({ requiredApprovalCount: ctx.params.required_approval_count }).where(eq(envs.id, env.id));
      });
      return (await present(ctx, kit, [await load(kit, g.group.id, env.name)]))[0];
    },
    { visibility: "published" },
  ),

  /** Unprotect: 200, as the spec says (GitLab's code answers 204). */
  "protectedEnvironments.unprotect": implement(
    Runners.protectedEnvironments.unprotect,
    async (ctx) => {
      const g = await managedGroup(kit, ctx, ctx.params.id);
      const env = await load(kit, g.group.id, ctx.params.name);
      const [presented] = await present(ctx, kit, [env]);
      await kit.db.delete(envs).where(eq(envs.id, env.id));
      return presented;
    },
    { visibility: "published" },
  ),
});
