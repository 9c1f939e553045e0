import { sql } from "drizzle-orm";
import { boolean, index, integer, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts, users } from "./schema";

/**
 * Group SAML SSO and SCIM (GitLab's saml_providers, scim_oauth_access_tokens and
 * group_scim_identities). Groups live in the namespaces service: `group_id` is the id of a top-level
 * group there, never a foreign key; the rows go when namespaces announces the group removed.
 */

/** A top-level group's SAML SSO settings; its id is the `saml_provider_id` members show. */
export const groupSamlProviders = accounts.table(
  "group_saml_providers",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id").notNull(),
    enabled: boolean("enabled").notNull().default(false),
    ssoUrl: text("sso_url").notNull(),
    certificateFingerprint: text("certificate_fingerprint").notNull(),
    enforcedSso: boolean("enforced_sso").notNull().default(false),
    /** Access level of the memberships SCIM provisioning creates (Guest unless configured). */
    defaultMembershipRole: integer("default_membership_role").notNull().default(10),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("group_saml_providers_group_idx").on(t.groupId)],
);

/** A group's SCIM token, one per group (a new one replaces it): only its SHA-256 digest is kept. */
export const groupScimTokens = accounts.table(
  "group_scim_tokens",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id").notNull(),
    tokenDigest: text("token_digest").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("group_scim_tokens_group_idx").on(t.groupId), uniqueIndex("group_scim_tokens_digest_idx").on(t.tokenDigest)],
);

/**
 * A user provisioned into a group by its identity provider: `extern_uid` is the SCIM id (unique per
 * group, case-insensitively, as GitLab's), one identity per user and group. Inactive once
 * deprovisioned; removed with the user.
 */
export const groupScimIdentities = accounts.table(
  "group_scim_identities",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    externUid: text("extern_uid").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("group_scim_identities_uid_idx").on(t.groupId, sql`lower(${t.externUid})`),
    uniqueIndex("group_scim_identities_user_idx").on(t.groupId, t.userId),
    index("group_scim_identities_user_id_idx").on(t.userId),
  ],
);

export type SamlProviderRow = typeof groupSamlProviders.$inferSelect;
export type ScimIdentityRow = typeof groupScimIdentities.$inferSelect;
