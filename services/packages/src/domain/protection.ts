import { forbidden } from "@collab/core";
import { DELETE_LEVELS, PUSH_LEVELS } from "@collab/packages-contract";
import type { Db } from "@collab/db";
import { and, eq } from "drizzle-orm";
import { protectionRules, type ProtectionRuleRow } from "../db/schema";
import type { RegistryAccess } from "./access";

/** A name pattern with `*` wildcards as a case-insensitive whole-name matcher (SQL ILIKE on the glob). */
export function patternMatcher(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "is");
}

export const matchesPattern = (pattern: string, name: string) => patternMatcher(pattern).test(name);

export async function rulesFor(db: Db, projectId: number, packageType: string, packageName: string): Promise<ProtectionRuleRow[]> {
  const rules = await db
    .select()
    .from(protectionRules)
    .where(and(eq(protectionRules.projectId, projectId), eq(protectionRules.packageType, packageType)));
  return rules.filter((r) => matchesPattern(r.packageNamePattern, packageName));
}

/**
 * Whether the rules keep this caller from pushing: a deploy token may not push any package a rule
 * with a push level matches; a user below a matching rule's push level may not either.
 */
export function pushProtected(rules: ProtectionRuleRow[], access: Pick<RegistryAccess, "role" | "deployToken">): boolean {
  return rules.some((r) => {
    const level = r.minimumAccessLevelForPush ? PUSH_LEVELS[r.minimumAccessLevelForPush as keyof typeof PUSH_LEVELS] : undefined;
    if (level === undefined) return false;
    return access.deployToken || access.role < level;
  });
}

/** Whether the rules keep this caller from deleting (below a matching rule's delete level). */
export function deleteProtected(rules: ProtectionRuleRow[], access: Pick<RegistryAccess, "role" | "deployToken">): boolean {
  return rules.some((r) => {
    const level = r.minimumAccessLevelForDelete ? DELETE_LEVELS[r.minimumAccessLevelForDelete as keyof typeof DELETE_LEVELS] : undefined;
    if (level === undefined) return false;
    return access.deployToken || access.role < level;
  });
}

/** 403 `Package protected.` when a rule keeps the caller from pushing this package. */
export async function assertPushAllowed(db: Db, access: RegistryAccess, packageType: string, name: string) {
  if (pushProtected(await rulesFor(db, access.project.id, packageType, name), access)) throw forbidden("Package protected.");
}

/** 403 `Package is deletion protected.` when a rule keeps the caller from deleting this package. */
export async function assertDeleteAllowed(db: Db, access: RegistryAccess, packageType: string, name: string) {
  if (deleteProtected(await rulesFor(db, access.project.id, packageType, name), access)) throw forbidden("Package is deletion protected.");
}
