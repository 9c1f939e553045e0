import { implement, recordNotFound, unprocessable } from "@collab/core";
import { Packages } from "@collab/packages-contract";
import type { ServiceKit } from "@collab/db";
import { and, asc, eq, ne } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { presentRule } from "./api/package.entity";
import { protectionRules, type ProtectionRuleRow } from "./db/schema";
import { registryAccess } from "./domain/access";

/** npm names with `*` wildcards (GitLab's protection_rules_npm_package_name_pattern_regex). */
const NPM_PATTERN = /^(?:@[A-Za-z0-9_*][A-Za-z0-9_.*-]*\/)?[-+._a-zA-Z0-9*]+$/;
/** PyPI names with wildcards. */
const PYPI_PATTERN = /^[A-Za-z0-9*](?:[A-Za-z0-9._*-]*[A-Za-z0-9*])?$/;

/** The model's validations, as full messages (GitLab's errors.full_messages.to_sentence). */
export function ruleErrors(r: Pick<ProtectionRuleRow, "packageNamePattern" | "packageType" | "minimumAccessLevelForPush" | "minimumAccessLevelForDelete">, taken: boolean): string[] {
  const errors: string[] = [];
  const pattern = r.packageNamePattern;
  if (!pattern.trim()) errors.push("Package name pattern can't be blank");
  else if (pattern.length > 255) errors.push("Package name pattern is too long (maximum is 255 characters)");
  else if (r.packageType === "npm" && !NPM_PATTERN.test(pattern)) errors.push("Package name pattern should be a valid NPM package name with optional wildcard characters.");
  else if (r.packageType === "pypi" && !PYPI_PATTERN.test(pattern)) errors.push("Package name pattern should be a valid PyPI package name with optional wildcard characters.");
  if (taken) errors.push("Package name pattern has already been taken");
  if (!r.minimumAccessLevelForPush && !r.minimumAccessLevelForDelete) errors.push("A rule must have at least a minimum access role for push or delete.");
  return errors;
}

const toSentence = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

/**
 * Package protection rules of a project (GitLab's project_packages_protection_rules.rb): list,
 * create, update, delete; Maintainer and up. Refusals of the model are 422 `{"message":{"error":…}}`.
 */
export function protectionActions(kit: ServiceKit): Record<string, ActionSchema> {
  async function taken(projectId: number, type: string, pattern: string, exceptId?: number) {
    const where = [eq(protectionRules.projectId, projectId), eq(protectionRules.packageType, type), eq(protectionRules.packageNamePattern, pattern)];
    if (exceptId !== undefined) where.push(ne(protectionRules.id, exceptId));
    return (await kit.db.select({ id: protectionRules.id }).from(protectionRules).where(and(...where)).limit(1)).length > 0;
  }
  const refuse = (errors: string[]) => unprocessable({ error: toSentence(errors) });

  async function ruleOf(projectId: number, ruleId: number) {
    const [rule] = await kit.db.select().from(protectionRules).where(and(eq(protectionRules.id, ruleId), eq(protectionRules.projectId, projectId)));
    if (!rule) throw recordNotFound();
    return rule;
  }

  return {
    "protection.list": implement(
      Packages.protection.list,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "admin");
        const rows = await kit.db.select().from(protectionRules).where(eq(protectionRules.projectId, access.project.id)).orderBy(asc(protectionRules.id));
        return rows.map(presentRule);
      },
      { visibility: "published" },
    ),

    "protection.create": implement(
      Packages.protection.create,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "admin");
        const row = {
          packageNamePattern: ctx.params.package_name_pattern,
          packageType: ctx.params.package_type,
          minimumAccessLevelForPush: ctx.params.minimum_access_level_for_push ?? null,
          minimumAccessLevelForDelete: ctx.params.minimum_access_level_for_delete ?? null,
        };
        const errors = ruleErrors(row, await taken(access.project.id, row.packageType, row.packageNamePattern));
        if (errors.length) throw refuse(errors);
        const [created] = await kit.db.insert(protectionRules).values({ projectId: access.project.id, ...row }).onConflictDoNothing().returning();
        if (!created) throw refuse(["Package name pattern has already been taken"]);
        return presentRule(created);
      },
      { visibility: "published" },
    ),

    "protection.update": implement(
      Packages.protection.update,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "admin");
        const rule = await ruleOf(access.project.id, ctx.params.package_protection_rule_id);
        const p = ctx.params;
        const next = {
          packageNamePattern: p.package_name_pattern ?? rule.packageNamePattern,
          packageType: p.package_type ?? rule.packageType,
          minimumAccessLevelForPush: p.minimum_access_level_for_push === undefined ? rule.minimumAccessLevelForPush : p.minimum_access_level_for_push,
          minimumAccessLevelForDelete: p.minimum_access_level_for_delete === undefined ? rule.minimumAccessLevelForDelete : p.minimum_access_level_for_delete,
        };
        const errors = ruleErrors(next, await taken(access.project.id, next.packageType, next.packageNamePattern, rule.id));
        if (errors.length) throw refuse(errors);
        const [updated] = await kit.db.update(protectionRules).set({ ...next, updatedAt: new Date() }).where(eq(protectionRules.id, rule.id)).returning();
        return presentRule(updated);
      },
      { visibility: "published" },
    ),

    "protection.delete": implement(
      Packages.protection.delete,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "admin");
        const rule = await ruleOf(access.project.id, ctx.params.package_protection_rule_id);
        await kit.db.delete(protectionRules).where(eq(protectionRules.id, rule.id));
        return null;
      },
      { visibility: "published" },
    ),
  };
}
