import { gBool, gInt, gString, paginationParams } from "@collab/core";
import { z } from "zod";
import { projectRef } from "./projects";

/** Levels a push or merge entry may name: No one, Developers + Maintainers, Maintainers, Admins. */
const level = () => gInt().refine((n) => [0, 30, 40, 60].includes(n), { error: "does not have a valid value" });
const unprotectLevel = () => gInt().refine((n) => [30, 40, 60].includes(n), { error: "does not have a valid value" });
const name = () => gString().refine((s) => s.length > 0, { error: "is empty" });

export const ListProtectedBranchesParams = z.object({ id: projectRef(), search: gString().optional(), ...paginationParams });
export const ProtectedBranchParams = z.object({ id: projectRef(), name: name() });
export const ProtectBranchParams = z.object({
  id: projectRef(),
  name: name(),
  push_access_level: level().optional(),
  merge_access_level: level().optional(),
  unprotect_access_level: unprotectLevel().optional(),
  allow_force_push: gBool().optional(),
  code_owner_approval_required: gBool().optional(),
});
export const UpdateProtectedBranchParams = ProtectBranchParams;

export type ProtectBranchInput = z.output<typeof ProtectBranchParams>;
