import { ApiError, conflict, currentSettings, forbidden, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { CreateUserParams, UpdateUserParams } from "@collab/accounts-contract";
import { users, type UserRow } from "../db/schema";
import { hashPassword } from "./passwords";

export const USERNAME = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
export const EMAIL = /^[^@\s]+@[^@\s]+$/;
export const USERNAME_FORMAT_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
/** Devise's password_length maximum. */
export const MAXIMUM_PASSWORD_LENGTH = 128;
/** The instance's minimum_password_length (GitLab's default and floor: 8). */
export const minimumPasswordLength = () => Math.max(8, Number(currentSettings().minimum_password_length) || 8);

/** Usernames GitLab's User model accepts (format only). */
export const usernameFormatValid = (u: string) => USERNAME.test(u) && !/\.(git|atom)$/i.test(u) && !u.endsWith(".");

/** Model validations of GitLab's User, collected like ActiveRecord errors. */
function validate(p: { username?: string; email?: string; name?: string; password?: string; projects_limit?: number }, existingUsername?: string) {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (p.email !== undefined && !EMAIL.test(p.email)) add("email", "is invalid");
  if (p.name !== undefined && p.name.trim() === "") add("name", "can't be blank");
  if (p.name !== undefined && p.name.length > 255) add("name", "is too long (maximum is 255 characters)");
  if (p.username !== undefined && p.username !== existingUsername) {
    if (!usernameFormatValid(p.username)) add("username", USERNAME_FORMAT_MESSAGE);
    if (p.username.length > 255) add("username", "is too long (maximum is 255 characters)");
  }
  if (p.projects_limit !== undefined && p.projects_limit < 0) add("projects_limit", "must be greater than or equal to 0");
  if (p.password !== undefined) {
    const min = minimumPasswordLength();
    if (p.password.length < min) add("password", `is too short (minimum is ${min} characters)`);
    else if (p.password.length > MAXIMUM_PASSWORD_LENGTH) add("password", `is too long (maximum is ${MAXIMUM_PASSWORD_LENGTH} characters)`);
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

async function ensureUnique(db: Db, p: { username?: string; email?: string }, exceptId?: number) {
  if (p.email !== undefined) {
    const [hit] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${p.email})`);
    if (hit && hit.id !== exceptId) throw conflict("Email has already been taken");
  }
  if (p.username !== undefined) {
    const [hit] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${p.username})`);
    if (hit && hit.id !== exceptId) throw conflict("Username has already been taken");
  }
}

/** Maps a unique-index race to the same 409 the pre-check gives. */
function uniqueViolation(err: unknown): never {
  // drizzle wraps driver errors in DrizzleQueryError, keeping the driver's error as `cause`.
  const e = ((err as { cause?: unknown })?.cause ?? err) as { code?: string; constraint?: string; message?: string };
  const text = `${e.constraint ?? ""} ${e.message ?? ""}`;
  if (e.code === "23505" && text.includes("email")) throw conflict("Email has already been taken");
  if (e.code === "23505" && text.includes("username")) throw conflict("Username has already been taken");
  throw err;
}

export interface NewUserExtras {
  userType?: string;
  bot?: boolean;
  provisionedByGroupId?: number | null;
  /** The project or group whose access token a project_bot / group_bot user holds. */
  botResource?: { type: string; id: number };
  createdById?: number | null;
  /** active unless said otherwise (self sign-up awaiting approval: blocked_pending_approval). */
  state?: string;
}

export async function createUser(db: Db, p: CreateUserParams, extras: NewUserExtras = {}): Promise<UserRow> {
  // GitLab answers a taken email or username with 409 before any other validation error.
  await ensureUnique(db, p);
  validate(p);
  const password = p.password ?? randomBytes(24).toString("base64url");
  try {
    const [row] = await db
      .insert(users)
      .values({
        username: p.username,
        email: p.email,
        name: p.name,
        state: extras.state ?? "active",
        admin: p.admin ?? false,
        bot: extras.bot ?? false,
        userType: extras.userType ?? "human",
        passwordDigest: await hashPassword(password),
        canCreateGroup: p.can_create_group ?? currentSettings().can_create_group,
        projectsLimit: p.projects_limit ?? currentSettings().default_projects_limit,
        external: p.external ?? false,
        privateProfile: p.private_profile ?? false,
        bio: p.bio ?? "",
        location: p.location ?? "",
        publicEmail: p.public_email ?? null,
        websiteUrl: p.website_url ?? "",
        organization: p.organization ?? "",
        jobTitle: p.job_title ?? "",
        pronouns: p.pronouns ?? null,
        linkedin: p.linkedin ?? "",
        twitter: p.twitter ?? "",
        discord: p.discord ?? "",
        note: p.note ?? null,
        provisionedByGroupId: extras.provisionedByGroupId ?? null,
        botResourceType: extras.botResource?.type ?? null,
        botResourceId: extras.botResource?.id ?? null,
        createdById: extras.createdById ?? null,
        confirmedAt: p.skip_confirmation === false ? null : new Date(),
      })
      .returning();
    return row;
  } catch (err) {
    uniqueViolation(err);
  }
}

/**
 * User#set_username_errors: the new username's personal namespace path is taken by a group (or
 * another namespace) though no user has that username.
 */
export const USERNAME_NAMESPACE_TAKEN = "A user, alias, or group already exists with that username.";

export interface UpdateUserOptions {
  /**
   * Whether `username` is free as the path of this user's personal namespace (the namespaces
   * service owns namespaces); asked only when the username changes, after the other checks.
   */
  namespacePathAvailable?: (username: string) => Promise<boolean>;
}

/** Whether an update renames the user's personal namespace (its path follows the username, its name the name). */
export const movesNamespace = (before: UserRow, after: UserRow) => before.username !== after.username || before.name !== after.name;

export async function updateUser(db: Db, existing: UserRow, p: Omit<UpdateUserParams, "id">, opts: UpdateUserOptions = {}): Promise<UserRow> {
  await ensureUnique(db, p, existing.id);
  validate(p, existing.username);
  if (p.username !== undefined && p.username !== existing.username && opts.namespacePathAvailable && !(await opts.namespacePathAvailable(p.username)))
    throw validationFailed({ base: [USERNAME_NAMESPACE_TAKEN] });
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  const copy: [keyof typeof p, keyof typeof users.$inferInsert][] = [
    ["email", "email"], ["username", "username"], ["name", "name"], ["admin", "admin"],
    ["can_create_group", "canCreateGroup"], ["projects_limit", "projectsLimit"], ["external", "external"],
    ["private_profile", "privateProfile"], ["bio", "bio"], ["location", "location"], ["public_email", "publicEmail"],
    ["website_url", "websiteUrl"], ["organization", "organization"], ["job_title", "jobTitle"], ["pronouns", "pronouns"],
    ["linkedin", "linkedin"], ["twitter", "twitter"], ["discord", "discord"], ["note", "note"],
  ];
  for (const [from, to] of copy) if (p[from] !== undefined) (set as Record<string, unknown>)[to] = p[from];
  // A new address needs confirming (Devise's reconfirmable), unless the administrator skips that
  // (skip_reconfirmation), which also confirms an address never confirmed. Only a confirmed address
  // claims invitations sent to it (namespaces, on accounts.user.updated).
  if (p.email !== undefined) {
    const changed = p.email.toLowerCase() !== existing.email.toLowerCase();
    if (p.skip_reconfirmation === true && (changed || existing.confirmedAt === null)) set.confirmedAt = new Date();
    else if (changed && p.skip_reconfirmation !== true) set.confirmedAt = null;
  }
  if (p.password !== undefined) set.passwordDigest = await hashPassword(p.password);
  try {
    const [row] = await db.update(users).set(set).where(eq(users.id, existing.id)).returning();
    return row;
  } catch (err) {
    uniqueViolation(err);
  }
}

export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

const BLOCKED_STATES = ["blocked", "ldap_blocked", "blocked_pending_approval"];
export const PENDING_APPROVAL = "blocked_pending_approval";

export type StateEvent = "block" | "unblock" | "deactivate" | "activate";

/**
 * POST /users/:id/{block,unblock,deactivate,activate} with GitLab's guards; repeating a transition
 * that already holds is a no-op. Returns the new state, or null when nothing changed.
 */
export async function changeState(db: Db, user: UserRow, event: StateEvent, actorId: number): Promise<string | null> {
  // User#blocked? holds for every blocked state, a sign-up awaiting approval included.
  const blocked = BLOCKED_STATES.includes(user.state);
  let next: string;
  switch (event) {
    case "block":
      if (user.id === actorId) throw forbidden("The API initiating user cannot be blocked by the API");
      next = "blocked";
      break;
    case "unblock":
      if (user.state === "deactivated") throw forbidden("Deactivated users cannot be unblocked by the API");
      next = "active";
      break;
    case "deactivate":
      if (blocked) throw new ApiError(403, { message: "Error occurred. A blocked user cannot be deactivated" }, "FORBIDDEN");
      next = "deactivated";
      break;
    case "activate":
      if (blocked) throw new ApiError(403, { message: "Error occurred. A blocked user must be unblocked to be activated" }, "FORBIDDEN");
      next = "active";
      break;
  }
  if (user.state === next) return null;
  await db.update(users).set({ state: next, updatedAt: new Date() }).where(eq(users.id, user.id));
  return next;
}

/**
 * POST /users/:id/approve (Users::ApproveService): a sign-up awaiting approval becomes active.
 * Anyone else is GitLab's 409. The users API answers success with 201 {"message": "Success"}.
 */
export async function approveUser(db: Db, user: UserRow): Promise<void> {
  const [row] = await db
    .update(users)
    .set({ state: "active", updatedAt: new Date() })
    .where(and(eq(users.id, user.id), eq(users.state, PENDING_APPROVAL)))
    .returning({ id: users.id });
  if (!row) throw conflict("The user you are trying to approve is not pending approval");
}

/** POST /users/:id/reject (Users::RejectService): deletes a sign-up awaiting approval, else 409. */
export async function rejectUser(db: Db, user: UserRow): Promise<void> {
  const [row] = await db
    .delete(users)
    .where(and(eq(users.id, user.id), eq(users.state, PENDING_APPROVAL)))
    .returning({ id: users.id });
  if (!row) throw conflict("User does not have a pending request");
}
