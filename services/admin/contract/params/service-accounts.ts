import { accessTokenListParams, gArray, gDate, gEnum, gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** :id of a group: numeric id or URL-decoded full path. */
const groupRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });
const listParams = { ...paginationParams, order_by: gEnum(["id", "username"] as const).default("id"), sort: gEnum(["asc", "desc"] as const).default("desc") };
const createParams = { name: gString().optional(), username: gString().optional(), email: gString().optional() };
/** PATCH params: Users::ServiceAccounts::UpdateService::ALLOWED_PARAMS. */
const updateParams = { user_id: gId(), name: gString().optional(), username: gString().optional(), email: gString().optional() };

export const ListServiceAccountsParams = z.object(listParams);
export const CreateServiceAccountParams = z.object(createParams);
export const UpdateServiceAccountParams = z.object(updateParams);

export const ListGroupServiceAccountsParams = z.object({ id: groupRef(), ...listParams });
export const CreateGroupServiceAccountParams = z.object({ id: groupRef(), ...createParams });
export const DeleteGroupServiceAccountParams = z.object({ id: groupRef(), user_id: gId(), hard_delete: z.unknown().optional() });
export const UpdateGroupServiceAccountParams = z.object({ id: groupRef(), ...updateParams });
export const ListGroupServiceAccountTokensParams = z.object({ id: groupRef(), user_id: gId(), ...accessTokenListParams });
export const RotateGroupServiceAccountTokenParams = z.object({ id: groupRef(), user_id: gId(), token_id: gId(), expires_at: gDate().optional() });
export const RevokeGroupServiceAccountTokenParams = z.object({ id: groupRef(), user_id: gId(), token_id: gId() });
export const CreateGroupServiceAccountTokenParams = z.object({
  id: groupRef(),
  user_id: gId(),
  name: gString(),
  scopes: gArray(z.string({ error: "is invalid" })),
  description: gString().optional(),
  expires_at: gDate().optional(),
});
