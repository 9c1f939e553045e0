import { validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { SettingChanges } from "../api/notification-settings.params";
import { notificationSettings, users, type NotificationSettingRow, type UserRow } from "../db/schema";
import { defaultLevel, eventColumn, type EmailEvent, type SettingSource } from "./notification-levels";

/** User#notification_email_verified's error. */
export const EMAIL_NOT_VERIFIED = "must be an email you have verified";

type EmailOwner = Pick<UserRow, "email" | "confirmedAt">;

/**
 * User#verified_emails: the addresses a user has confirmed. There are no secondary addresses in
 * this system, so it is the primary one once confirmed (admins create users confirmed unless
 * `skip_confirmation=false`).
 */
export const verifiedEmails = (user: EmailOwner): string[] => (user.confirmedAt ? [user.email] : []);

const verifiedMatch = (user: EmailOwner, address: string) => verifiedEmails(user).find((e) => e.toLowerCase() === address.trim().toLowerCase());

/**
 * User#notification_email_or_default: the chosen address while it is still one of the user's
 * verified ones (the primary address may have changed since), else the primary address.
 */
export const notificationEmailOf = (user: EmailOwner, stored: string | null | undefined): string =>
  (stored && verifiedMatch(user, stored)) || user.email;

/**
 * The notification_email to store: blank resets it (mail goes to the primary address again), any
 * other address must be verified, else GitLab's validation error.
 */
export function checkNotificationEmail(user: EmailOwner, given: string): string | null {
  if (given.trim() === "") return null;
  const match = verifiedMatch(user, given);
  if (!match) throw validationFailed({ notification_email: [EMAIL_NOT_VERIFIED] });
  return match;
}

/** What one PUT changes: the level, events, and for the global setting the notification email. */
export interface SettingUpdate extends SettingChanges {
  notificationEmail?: string;
}

/**
 * Writes the user's setting for a source, creating the row on first use (from the source's
 * defaults), in one transaction: the notification email is checked against the user's verified
 * addresses as the row is written, and nothing is written when it is refused.
 */
export async function updateSetting(db: Db, userId: number, source: SettingSource, update: SettingUpdate): Promise<NotificationSettingRow> {
  return db.transaction(async (tx) => {
    const set: Partial<typeof notificationSettings.$inferInsert> = { updatedAt: new Date() };
    if (update.level !== undefined) set.level = update.level;
    for (const [event, on] of Object.entries(update.events) as [EmailEvent, boolean][]) (set as Record<string, unknown>)[eventColumn(event)] = on;
    if (source.type === "global" && update.notificationEmail !== undefined) {
      const [user] = await tx.select({ email: users.email, confirmedAt: users.confirmedAt }).from(users).where(eq(users.id, userId)).for("share");
      set.notificationEmail = user ? checkNotificationEmail(user, update.notificationEmail) : null;
    }
    const values = {
      userId,
      sourceType: source.type,
      sourceId: source.type === "global" ? null : source.id,
      level: defaultLevel(source.type),
      ...set,
    };
    const conflict =
      source.type === "global"
        ? { target: [notificationSettings.userId], targetWhere: sql.raw(`source_type = 'global'`) }
        : { target: [notificationSettings.userId, notificationSettings.sourceType, notificationSettings.sourceId], targetWhere: sql.raw(`source_id IS NOT NULL`) };
    const [row] = await tx
      .insert(notificationSettings)
      .values(values)
      .onConflictDoUpdate({ ...conflict, set })
      .returning();
    return row;
  });
}

/**
 * Drops every user's settings on groups or projects that are gone for good (one statement, so a
 * repeated or late event removes nothing more). Answers how many rows went.
 */
export async function removeSourceSettings(db: Db, type: "group" | "project", ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await db
    .delete(notificationSettings)
    .where(and(eq(notificationSettings.sourceType, type), inArray(notificationSettings.sourceId, ids)))
    .returning({ id: notificationSettings.id });
  return gone.length;
}
