import { accessTokenListParams, gArray, gDate, gEnum, gId, gInt, gString } from "@collab/core";
import { z } from "zod";
import { RESOURCE_TOKEN_SCOPES } from "./constants";
import { CreateTokenParams } from "./tokens";

/** Routes fix `source` (projects, groups), as the members routes do. */
const resource = { source: gEnum(["projects", "groups"] as const), id: gString().refine((s) => s.trim() !== "", { error: "is invalid" }) };

/** Levels a project or group access token may hold: Guest to Owner (GitLab's options_with_owner). */
export const RESOURCE_TOKEN_LEVELS = [10, 20, 30, 40, 50] as const;

export const ListResourceTokensParams = z.object({ ...resource, ...accessTokenListParams });
export type ListResourceTokensParams = z.output<typeof ListResourceTokensParams>;

export const ResourceTokenParams = z.object({ ...resource, token_id: gId() });

/** The personal access token create params (name, description, expires_at) with the bot's scopes and level. */
export const CreateResourceTokenParams = CreateTokenParams.omit({ user_id: true }).extend({
  ...resource,
  scopes: gArray(gEnum(RESOURCE_TOKEN_SCOPES)).refine((s) => s.length > 0, { error: "is empty" }),
  access_level: gInt()
    .refine((n) => (RESOURCE_TOKEN_LEVELS as readonly number[]).includes(n), { error: "does not have a valid value" })
    .default(40),
});
export type CreateResourceTokenParams = z.output<typeof CreateResourceTokenParams>;

export const RotateResourceTokenParams = z.object({ ...resource, token_id: gId(), expires_at: gDate().optional() });

export const SelfRotateResourceTokenParams = z.object({ ...resource, expires_at: gDate().optional() });
