import { atLeastOneOf, gBool, gDateTime, gEnum, gId, gInt, gString, paginationParams } from "@collab/core";
import { z } from "zod";

const profile = {
  admin: gBool().optional(),
  can_create_group: gBool().optional(),
  projects_limit: gInt().optional(),
  external: gBool().optional(),
  private_profile: gBool().optional(),
  skip_confirmation: gBool().optional(),
  bio: gString().optional(),
  location: gString().optional(),
  public_email: gString().optional(),
  website_url: gString().optional(),
  organization: gString().optional(),
  job_title: gString().optional(),
  pronouns: gString().optional(),
  linkedin: gString().optional(),
  twitter: gString().optional(),
  discord: gString().optional(),
  note: gString().optional(),
};

/**
 * Three parts in Grape's declaration order, so that errors read as GitLab's do: "email is missing,
 * password, reset_password, force_random_password are missing, at least one parameter must be
 * provided, name is missing, username is missing" (an object's refinements would run last, and only
 * once its fields are valid).
 */
export const CreateUserParams = z
  .object({ email: gString() })
  .and(
    z
      .object({ password: gString().optional(), reset_password: gBool().optional(), force_random_password: gBool().optional() })
      .superRefine(atLeastOneOf("password", "reset_password", "force_random_password")),
  )
  .and(z.object({ name: gString(), username: gString(), ...profile }));
export type CreateUserParams = z.output<typeof CreateUserParams>;

export const UpdateUserParams = z.object({
  id: gId(),
  email: gString().optional(),
  /** With `email`: that address counts as confirmed at once (GitLab's skip_reconfirmation); else a new address is unconfirmed. */
  skip_reconfirmation: gBool().optional(),
  username: gString().optional(),
  name: gString().optional(),
  password: gString().optional(),
  ...profile,
});
export type UpdateUserParams = z.output<typeof UpdateUserParams>;

export const UserIdParams = z.object({ id: gId() });

export const ListUsersParams = z.object({
  ...paginationParams,
  username: gString().optional(),
  search: gString().optional(),
  active: gBool().optional(),
  blocked: gBool().optional(),
  external: gBool().optional(),
  admins: gBool().optional(),
  humans: gBool().optional(),
  exclude_external: gBool().optional(),
  without_project_bots: gBool().optional(),
  created_after: gDateTime().optional(),
  created_before: gDateTime().optional(),
  /** No defaults: without either, a search keeps its relevance order (the finder applies id desc otherwise). */
  order_by: gEnum(["id", "name", "username", "created_at", "updated_at"] as const).optional(),
  sort: gEnum(["asc", "desc"] as const).optional(),
});
export type ListUsersParams = z.output<typeof ListUsersParams>;

/** POST /users/:id/{block,unblock,deactivate,activate}: the route fixes the event. */
export const SetUserStateParams = z.object({ id: gId(), event: z.enum(["block", "unblock", "deactivate", "activate"]) });

/**
 * POST /users outside /api/v4 (Devise's registrations#create behind GitLab's sign-up form):
 * `user[...]` form fields or {"user": {...}}.
 */
export const SignUpParams = z.object({
  user: z.object({
    name: gString().optional(),
    first_name: gString().optional(),
    last_name: gString().optional(),
    username: gString().optional(),
    email: gString().optional(),
    password: gString().optional(),
  }),
});
