import { ApiError, currentSettings, errorBodyOf, unprocessable, type SettingsSnapshot } from "@collab/core";
import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import type { CreateUserParams } from "@collab/accounts-contract";
import { users, type UserRow } from "../db/schema";
import { createUser, EMAIL, MAXIMUM_PASSWORD_LENGTH, minimumPasswordLength, PENDING_APPROVAL, USERNAME_FORMAT_MESSAGE, usernameFormatValid } from "./users";

/** What the registration form posts as `user[...]`. */
export interface SignUp {
  name?: string;
  first_name?: string;
  last_name?: string;
  username?: string;
  email?: string;
  password?: string;
}

/** The User model's message for an address the sign-up restrictions refuse (GitLab 18, all three rules). */
export const EMAIL_NOT_ALLOWED = "is not allowed for sign-up. Please use your regular email address. Check with your administrator.";

export const signUpDisabled = () => new ApiError(403, { message: "Sign-up is disabled" }, "FORBIDDEN");

/**
 * User#domain_matches?: an entry matches the address's domain as a whole, case-insensitively, with
 * `*` standing for any run of characters (`*.example.com` for every subdomain).
 */
export function domainMatches(patterns: readonly string[], email: string): boolean {
  const at = email.lastIndexOf("@");
  if (at < 0) return false;
  const domain = email.slice(at + 1);
  return patterns.some((p) => {
    const source = p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*?");
    return new RegExp(`^${source}$`, "i").test(domain);
  });
}

/** email_restrictions as a regular expression (RE2 in GitLab); an invalid one restricts nothing. */
function restricted(pattern: string | null, email: string): boolean {
  if (!pattern) return false;
  try {
    return new RegExp(pattern).test(email);
  } catch {
    return false;
  }
}

/**
 * The sign-up restrictions of the User model, on self sign-up only: an address on the allowlist
 * passes whatever else says; with an allowlist any other address is refused; then the denylist
 * (when enabled) and the email restrictions (when enabled).
 */
export function signUpEmailAllowed(email: string, s: SettingsSnapshot = currentSettings()): boolean {
  const allowlist = (s.domain_allowlist ?? []).filter(Boolean);
  if (allowlist.length > 0) return domainMatches(allowlist, email);
  if (s.domain_denylist_enabled && domainMatches((s.domain_denylist ?? []).filter(Boolean), email)) return false;
  if (s.email_restrictions_enabled && restricted(s.email_restrictions, email)) return false;
  return true;
}

/** The name the form gives: `name`, else "first last" (the form's two fields). */
export const nameOf = (p: SignUp) => (p.name ?? [p.first_name, p.last_name].filter((x) => x && x.trim() !== "").join(" ")).trim();

/** Every validation error of the sign-up at once, as ActiveRecord collects them: field → messages. */
async function signUpErrors(db: Db, p: SignUp): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const name = nameOf(p);
  if (name === "") add("name", "can't be blank");
  else if (name.length > 255) add("name", "is too long (maximum is 255 characters)");

  const username = p.username?.trim() ?? "";
  if (username === "") add("username", "can't be blank");
  else {
    if (!usernameFormatValid(username)) add("username", USERNAME_FORMAT_MESSAGE);
    if (username.length > 255) add("username", "is too long (maximum is 255 characters)");
    const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${username})`);
    if (taken) add("username", "has already been taken");
  }

  const email = p.email?.trim() ?? "";
  if (email === "") add("email", "can't be blank");
  else if (!EMAIL.test(email)) add("email", "is invalid");
  else {
    const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
    if (taken) add("email", "has already been taken");
    if (!signUpEmailAllowed(email)) add("email", EMAIL_NOT_ALLOWED);
  }

  const password = p.password ?? "";
  const min = minimumPasswordLength();
  if (password === "") add("password", "can't be blank");
  else if (password.length < min) add("password", `is too short (minimum is ${min} characters)`);
  else if (password.length > MAXIMUM_PASSWORD_LENGTH) add("password", `is too long (maximum is ${MAXIMUM_PASSWORD_LENGTH} characters)`);
  return errors;
}

/**
 * Devise's registrations#create under GitLab's sign-up settings: refused when signup_enabled is off;
 * every model error in one 422 {"message": {field: [...]}} (taken username and email included, as
 * the form shows them); the new user pending approval when require_admin_approval_after_user_signup,
 * with the instance's default projects limit and profile privacy.
 */
export async function signUp(db: Db, p: SignUp): Promise<UserRow> {
  const settings = currentSettings();
  if (!settings.signup_enabled) throw signUpDisabled();
  const errors = await signUpErrors(db, p);
  if (Object.keys(errors).length) throw unprocessable(errors);
  const params = {
    name: nameOf(p),
    username: p.username!.trim(),
    email: p.email!.trim(),
    password: p.password!,
    private_profile: settings.user_defaults_to_private_profile === true,
    skip_confirmation: true,
  } as CreateUserParams;
  try {
    return await createUser(db, params, { state: settings.require_admin_approval_after_user_signup ? PENDING_APPROVAL : "active" });
  } catch (err) {
    // A concurrent sign-up took the name or address after the check: the same 422 the check gives.
    const known = errorBodyOf(err);
    const message = known?.status === 409 ? String(known.body.message) : "";
    if (message.startsWith("Email")) throw unprocessable({ email: ["has already been taken"] });
    if (message.startsWith("Username")) throw unprocessable({ username: ["has already been taken"] });
    throw err;
  }
}
