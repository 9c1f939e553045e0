import type { ProtectedBranchRow } from "../db/schema";

const DESCRIPTIONS: Record<number, string> = { 0: "No one", 30: "Developers + Maintainers", 40: "Maintainers", 60: "Admins" };

const accessLevels = (level: number) => [
  { id: null, access_level: level, access_level_description: DESCRIPTIONS[level] ?? String(level), deploy_key_id: null, user_id: null, group_id: null },
];

/** GitLab's ProtectedBranch entity. */
export const presentProtectedBranch = (pb: ProtectedBranchRow) => ({
  id: pb.id,
  name: pb.name,
  push_access_levels: accessLevels(pb.pushAccessLevel),
  merge_access_levels: accessLevels(pb.mergeAccessLevel),
  unprotect_access_levels: accessLevels(pb.unprotectAccessLevel),
  allow_force_push: pb.allowForcePush,
  code_owner_approval_required: pb.codeOwnerApprovalRequired,
  inherited: false,
});
