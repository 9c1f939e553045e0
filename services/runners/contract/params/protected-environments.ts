import { gBool, gEnum, gInt, gString, paginationParams } from "@collab/core";
import { z } from "zod";

export const DEPLOYMENT_TIERS = ["production", "staging", "testing", "development", "other"] as const;

const entryShape = {
  id: gInt().optional(),
  access_level: gInt().optional(),
  user_id: gInt().optional(),
  group_id: gInt().optional(),
  group_inheritance_type: gEnum(["0", "1"] as const).or(z.number().int().min(0).max(1)).optional(),
  _destroy: gBool().optional(),
};
const DeployEntry = z.object(entryShape);
const ApprovalEntry = z.object({ ...entryShape, required_approvals: gInt().optional() });
/** A deploy access level or approval rule as a request gives it (nested attributes). */
export type ProtectedEnvironmentEntryParam = z.output<typeof ApprovalEntry>;
const list = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.values(v) : v), z.array(item, { error: "is invalid" }));

const Ref = z.object({ id: gString() });
const Named = Ref.extend({ name: gEnum(DEPLOYMENT_TIERS) });

export const ListProtectedEnvironmentsParams = Ref.extend(paginationParams);
export const ProtectedEnvironmentParams = Ref.extend({ name: gString() });
export const ProtectEnvironmentParams = Named.extend({ deploy_access_levels: list(DeployEntry), approval_rules: list(ApprovalEntry).optional(), required_approval_count: gInt().optional() });
export const UpdateProtectedEnvironmentParams = Named.extend({
  deploy_access_levels: list(DeployEntry).optional(),
  approval_rules: list(ApprovalEntry).optional(),
  required_approval_count: gInt().optional(),
});
