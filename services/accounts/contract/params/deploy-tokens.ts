import { gArray, gBool, gDateTime, gEnum, gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";
import { DEPLOY_TOKEN_SCOPES } from "./constants";

const filters = { ...paginationParams, active: gBool().optional() };
/** Routes fix `source` (projects, groups). */
const holder = { source: gEnum(["projects", "groups"] as const), id: gString().refine((s) => s.trim() !== "", { error: "is invalid" }) };

export const ListAllDeployTokensParams = z.object(filters);
export type ListDeployTokensFilters = z.output<typeof ListAllDeployTokensParams>;

export const ListDeployTokensParams = z.object({ ...holder, ...filters });

export const DeployTokenParams = z.object({ ...holder, token_id: gId() });

/**
 * POST: scopes an array or a comma list of the spec's five (Grape's values check); an empty list
 * passes here and is the model's "Scopes can't be blank".
 */
export const CreateDeployTokenParams = z.object({
  ...holder,
  name: gString(),
  scopes: gArray(gEnum(DEPLOY_TOKEN_SCOPES)),
  expires_at: gDateTime().optional(),
  username: gString().optional(),
});
