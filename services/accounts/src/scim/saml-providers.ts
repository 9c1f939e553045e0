import { validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import { groupSamlProviders, type SamlProviderRow } from "../db/saml.schema";
import { MEMBERSHIP_ROLES } from "./scim.params";

export async function findSamlProvider(db: Db, groupId: number): Promise<SamlProviderRow | undefined> {
  const [row] = await db.select().from(groupSamlProviders).where(eq(groupSamlProviders.groupId, groupId));
  return row;
}

/** The group's provider when SAML SSO is enabled for it (Group#saml_enabled?). */
export async function enabledSamlProvider(db: Db, groupId: number): Promise<SamlProviderRow | undefined> {
  const row = await findSamlProvider(db, groupId);
  return row?.enabled ? row : undefined;
}

/** Providers of these groups with SSO enabled. */
export async function enabledSamlProviders(db: Db, groupIds: number[]): Promise<SamlProviderRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .select()
    .from(groupSamlProviders)
    .where(and(inArray(groupSamlProviders.groupId, groupIds), eq(groupSamlProviders.enabled, true)));
}

export interface SamlChanges {
  enabled?: boolean;
  sso_url?: string;
  certificate_fingerprint?: string;
  enforced_sso?: boolean;
  default_membership_role?: number;
}

const SHA1 = /^(?:(?:[A-Fa-f0-9]{2}[\s:]){19}[A-Fa-f0-9]{2}|[A-Fa-f0-9]{40})$/;
const SHA256 = /^(?:(?:[A-Fa-f0-9]{2}[\s:]){31}[A-Fa-f0-9]{2}|[A-Fa-f0-9]{64})$/;

/** AddressableUrlValidator with schemes https, ascii only. */
function ssoUrlErrors(url: string | undefined): string[] {
  if (url === undefined || url.trim() === "") return ["can't be blank"];
  let parsed: URL;
  try {
    if (!/^[\x21-\x7e]+$/.test(url)) return ["must be a valid URL"];
    parsed = new URL(url);
  } catch {
    return ["must be a valid URL"];
  }
  return parsed.protocol === "https:" ? [] : ["is blocked: Only allowed schemes are https"];
}

/** SamlProvider's validations on the row as it would be saved, collected like ActiveRecord errors. */
export function samlProviderErrors(row: { ssoUrl?: string; certificateFingerprint?: string; defaultMembershipRole: number }): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const sso = ssoUrlErrors(row.ssoUrl);
  if (sso.length) errors.sso_url = sso;
  const fp = row.certificateFingerprint;
  if (fp === undefined || fp.trim() === "") errors.certificate_fingerprint = ["can't be blank"];
  else if (fp.length < 40 || fp.length > 95 || !(SHA1.test(fp) || SHA256.test(fp)))
    errors.certificate_fingerprint = ["must be 40 or 64 hex characters (with optional colons between pairs)"];
  if (!(MEMBERSHIP_ROLES as readonly number[]).includes(row.defaultMembershipRole)) errors.default_membership_role = ["is not included in the list"];
  return errors;
}

/**
 * Creates or changes the group's SAML settings (GitLab's saml_providers#create/update): the
 * resulting row must hold a valid https SSO URL and a SHA-1 or SHA-256 certificate fingerprint
 * (400 {"message": {field: [...]}} otherwise). One statement: concurrent saves never make two rows.
 */
export async function saveSamlProvider(db: Db, groupId: number, changes: SamlChanges): Promise<SamlProviderRow> {
  const current = await findSamlProvider(db, groupId);
  const next = {
    enabled: changes.enabled ?? current?.enabled ?? false,
    ssoUrl: changes.sso_url ?? current?.ssoUrl,
    certificateFingerprint: changes.certificate_fingerprint ?? current?.certificateFingerprint,
    enforcedSso: changes.enforced_sso ?? current?.enforcedSso ?? false,
    defaultMembershipRole: changes.default_membership_role ?? current?.defaultMembershipRole ?? 10,
  };
  const errors = samlProviderErrors(next);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  const values = { ...next, ssoUrl: next.ssoUrl!, certificateFingerprint: next.certificateFingerprint! };
  const [row] = await db
    .insert(groupSamlProviders)
    .values({ groupId, ...values })
    .onConflictDoUpdate({ target: groupSamlProviders.groupId, set: { ...values, updatedAt: new Date() } })
    .returning();
  return row;
}
