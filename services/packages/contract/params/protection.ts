import { AccessLevel, gEnum, gId, gString } from "@collab/core";
import { z } from "zod";

/** Levels a rule may require, by name (GitLab's Gitlab::Access.sym_options_with_admin subsets). */
export const PUSH_LEVELS = { maintainer: AccessLevel.MAINTAINER, owner: AccessLevel.OWNER, admin: AccessLevel.ADMIN } as const;
export const DELETE_LEVELS = { owner: AccessLevel.OWNER, admin: AccessLevel.ADMIN } as const;
/** Formats a rule may protect. */
export const PROTECTED_TYPES = ["conan", "generic", "helm", "maven", "npm", "nuget", "pypi"] as const;

const projectRef = z.union([z.string(), z.number()]);
const pushLevel = gEnum(Object.keys(PUSH_LEVELS) as [string, ...string[]]).nullable();
const deleteLevel = gEnum(Object.keys(DELETE_LEVELS) as [string, ...string[]]).nullable();

const RuleFields = {
  package_name_pattern: gString(),
  package_type: gEnum(PROTECTED_TYPES),
  minimum_access_level_for_push: pushLevel.optional(),
  minimum_access_level_for_delete: deleteLevel.optional(),
};
export const ProjectRuleListParams = z.object({ id: projectRef });
export const CreateRule = z.object({ id: projectRef, ...RuleFields });
export const UpdateRule = z.object({
  id: projectRef,
  package_protection_rule_id: gId(),
  package_name_pattern: RuleFields.package_name_pattern.optional(),
  package_type: RuleFields.package_type.optional(),
  minimum_access_level_for_push: RuleFields.minimum_access_level_for_push,
  minimum_access_level_for_delete: RuleFields.minimum_access_level_for_delete,
});
export const RuleRef = z.object({ id: projectRef, package_protection_rule_id: gId() });
