import { Accounts } from "@collab/accounts-contract";
import { implement, notFound, requireCaller, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { eq, inArray } from "drizzle-orm";
import type { ServiceSchema } from "moleculer";
import { presentGlobalNotificationSetting, presentNotificationSetting } from "./api/notification-setting.entity";
import { changesFor } from "./api/notification-settings.params";
import { users } from "./db/schema";
import { emailEventsFor, resolveEffective, settingOf, type EmailEvent } from "./domain/notification-levels";
import { notificationEmailOf, updateSetting } from "./domain/notification-settings";
import { authorizeSource } from "./domain/notification-sources";
import { findSetting, findSettingsAlong } from "./finders/notification-settings.finder";

type Actions = NonNullable<ServiceSchema["actions"]>;

/** The caller's primary address and whether it is confirmed, for notification_email. */
async function emailOwner(kit: ServiceKit, userId: number) {
  const [user] = await kit.db.select({ email: users.email, confirmedAt: users.confirmedAt }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound("User");
  return user;
}

/**
 * GitLab's notification settings API (lib/api/notification_settings.rb): the caller's own global,
 * group and project settings. Group and project ones exist for what the caller may read (asked of
 * namespaces: 404 otherwise). Plus `notifications.effectiveLevel` on the bus, for mail features.
 * Settings on a removed group or project go in namespaces.events.ts, a user's with the user.
 */
export const notificationSettingsActions = (kit: ServiceKit): Actions => ({
  "notifications.global.get": implement(
    Accounts.notifications.global.get,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const [row, user] = await Promise.all([findSetting(kit.db, caller.id, { type: "global" }), emailOwner(kit, caller.id)]);
      return presentGlobalNotificationSetting(settingOf(row, "global"), notificationEmailOf(user, row?.notificationEmail), kit.config.LICENSE_TIER);
    },
    { visibility: "published" },
  ),

  "notifications.global.update": implement(
    Accounts.notifications.global.update,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const tier = kit.config.LICENSE_TIER;
      const changes = changesFor(ctx.params, "global", tier);
      const row = await updateSetting(kit.db, caller.id, { type: "global" }, { ...changes, notificationEmail: ctx.params.notification_email ?? undefined });
      const user = await emailOwner(kit, caller.id);
      return presentGlobalNotificationSetting(settingOf(row, "global"), notificationEmailOf(user, row.notificationEmail), tier);
    },
    { visibility: "published" },
  ),

  "notifications.source.get": implement(
    Accounts.notifications.source.get,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const source = await authorizeSource(ctx, ctx.params.source, ctx.params.id);
      const row = await findSetting(kit.db, caller.id, source);
      return presentNotificationSetting(settingOf(row, source.type), source.type, kit.config.LICENSE_TIER);
    },
    { visibility: "published" },
  ),

  "notifications.source.update": implement(
    Accounts.notifications.source.update,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const source = await authorizeSource(ctx, ctx.params.source, ctx.params.id);
      const tier = kit.config.LICENSE_TIER;
      const row = await updateSetting(kit.db, caller.id, source, changesFor(ctx.params, source.type, tier));
      return presentNotificationSetting(settingOf(row, source.type), source.type, tier);
    },
    { visibility: "published" },
  ),
});

/**
 * Bus only, for mail features: the level that applies to each of these users on a project or
 * group, following `global` up the groups to the user's global setting (see resolveEffective).
 * `group_ids` are the source's groups from the top-level one down (the `group_ids` of
 * `namespaces.access.project`'s project, or `traversal_ids` of `namespaces.access.group`); a
 * project's setting is read when `project_id` is given. Every event switch of the deciding
 * setting comes along (they matter when the level is `custom`), and the address mail goes to.
 * Unknown users are left out.
 */
export const effectiveLevelActions = (kit: ServiceKit): ImplementedAction[] => [
  implement(Accounts.notifications.effectiveLevel, async (ctx) => {
    const { user_ids, project_id, group_ids } = ctx.params;
    const ids = [...new Set(user_ids)];
    const [rows, owners] = await Promise.all([
      findSettingsAlong(kit.db, ids, { projectId: project_id, groupIds: group_ids }),
      kit.db.select({ id: users.id, email: users.email, confirmedAt: users.confirmedAt }).from(users).where(inArray(users.id, ids)),
    ]);
    const events = emailEventsFor("global", kit.config.LICENSE_TIER);
    const closestFirst = [...group_ids].reverse();
    return owners.map((user) => {
      const mine = rows.filter((r) => r.userId === user.id);
      const find = (type: string, id: number | null) => mine.find((r) => r.sourceType === type && r.sourceId === id);
      const global = find("global", null);
      const effective = resolveEffective({
        project: project_id === undefined ? undefined : { id: project_id, row: find("project", project_id) },
        groups: closestFirst.map((id) => ({ id, row: find("group", id) })),
        global,
      });
      return {
        user_id: user.id,
        level: effective.level,
        source: effective.source,
        source_id: effective.sourceId,
        events: Object.fromEntries(events.map((e) => [e, effective.events[e]])) as Partial<Record<EmailEvent, boolean>>,
        notification_email: notificationEmailOf(user, global?.notificationEmail),
      };
    });
  }),
];
