import { z } from "zod";

/** Relations per restore call; the import worker sends larger lists in several calls. */
export const RESTORE_BATCH = 500;

/** Who an import acts for: the user who started it, authorized by the import-export service. */
export const importer = z.object({ id: z.number().int(), username: z.string(), admin: z.boolean() });

/** A group's attributes as an export archive carries them (every one optional). */
export const attributes = z
  .object({
    name: z.string(),
    path: z.string(),
    description: z.string(),
    visibility: z.enum(["private", "internal", "public"]),
    project_creation_level: z.enum(["noone", "owner", "maintainer", "developer", "administrator"]),
    subgroup_creation_level: z.enum(["owner", "maintainer"]),
    request_access_enabled: z.boolean(),
    share_with_group_lock: z.boolean(),
    require_two_factor_authentication: z.boolean(),
    two_factor_grace_period: z.number().int().min(0),
    lfs_enabled: z.boolean(),
    emails_enabled: z.boolean(),
    mentions_disabled: z.boolean(),
    auto_devops_enabled: z.boolean().nullable(),
    default_branch: z.string().nullable(),
  })
  .partial();
export type Attributes = z.output<typeof attributes>;
