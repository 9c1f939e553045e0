import { gDate, gEnum, gId, gString, gArray, gBool, paginationParams, gDateTime } from "@collab/core";
import { z } from "zod";
import { PAT_SCOPES } from "./constants";

export const CreateTokenParams = z.object({
  user_id: gId(),
  name: gString().refine((s) => s.trim() !== "", { error: "is empty" }),
  description: gString().optional(),
  scopes: gArray(gEnum(PAT_SCOPES)).refine((s) => s.length > 0, { error: "is empty" }),
  expires_at: gDate().optional(),
});
export type CreateTokenParams = z.output<typeof CreateTokenParams>;

/** POST /user/personal_access_tokens: GitLab lets users mint only narrow scopes for themselves. */
export const CreateOwnTokenParams = CreateTokenParams.omit({ user_id: true }).extend({
  scopes: gArray(gEnum(["k8s_proxy", "self_rotate"] as const)).refine((s) => s.length > 0, { error: "is empty" }),
});

export const ListTokensParams = z.object({
  ...paginationParams,
  user_id: gId().optional(),
  state: gEnum(["active", "inactive"] as const).optional(),
  revoked: gBool().optional(),
  search: gString().optional(),
  created_after: gDateTime().optional(),
  created_before: gDateTime().optional(),
});
export type ListTokensParams = z.output<typeof ListTokensParams>;

export const TokenIdParams = z.object({ id: z.union([z.literal("self"), gId()]) });

/** POST /personal_access_tokens/self/rotate. */
export const RotateSelfTokenParams = z.object({ expires_at: gDate().optional() });
