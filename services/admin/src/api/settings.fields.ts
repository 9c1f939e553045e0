import { SETTING_TYPES, type SettingName, type Tier } from "@collab/admin-contract";
import { isIP } from "node:net";

/**
 * Every application setting the API reads and writes, in the order GET renders them: its Grape type
 * (the zod parser of the PUT param: a wrong type or value is a 400 {"error": "<name> is invalid"})
 * and the tier that licenses it, both from the contract (SETTING_TYPES), its ActiveRecord
 * validations (400 {"message": {"<name>": ["..."]}}) and GitLab's default. Unlicensed fields are
 * neither shown nor written (GitLab's filter_attributes_using_license drops them silently).
 */
export type { Tier };

export interface SettingField {
  name: string;
  default: unknown;
  tier: Tier;
  /** Model validations on the value after the update: messages without the field name. */
  check?: (value: any, all: Record<string, unknown>) => string[];
  /** A credential: stored sealed (domain/secrets.ts), shown to administrators, left out of the snapshot other processes get. */
  secret?: boolean;
}

const F: SettingField[] = [];
const def = (name: SettingName, dflt: unknown, opts: { check?: SettingField["check"]; secret?: boolean } = {}) =>
  F.push({ name, default: dflt, tier: SETTING_TYPES[name].tier, check: opts.check, ...(opts.secret && { secret: true }) });

// ---- validators (ActiveRecord wording) ---------------------------------------------------------
const gte = (min: number) => (v: number | null) => (v !== null && v < min ? [`must be greater than or equal to ${min}`] : []);
const gt = (min: number) => (v: number | null) => (v !== null && v <= min ? [`must be greater than ${min}`] : []);
const between = (min: number, max: number) => (v: number | null) =>
  v === null ? [] : v < min ? [`must be greater than or equal to ${min}`] : v > max ? [`must be less than or equal to ${max}`] : [];
const maxLength = (n: number) => (v: string | null) => (v !== null && v.length > n ? [`is too long (maximum is ${n} characters)`] : []);
const oneOf = (values: readonly unknown[]) => (v: unknown) => (v !== null && !values.includes(v) ? ["is not included in the list"] : []);

export function isUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}
const url = (v: string | null) => (v === null || v === "" || isUrl(v) ? [] : ["must be a valid URL"]);
const urlRequiredIf = (flag: string) => (v: string | null, all: Record<string, unknown>) =>
  all[flag] === true && (v === null || v === "") ? ["can't be blank"] : url(v);
const requiredIf = (flag: string) => (v: string | null, all: Record<string, unknown>) => (all[flag] === true && (v === null || v === "") ? ["can't be blank"] : []);

/** An IPv4/IPv6 address or CIDR range. */
export function isIpOrCidr(entry: string): boolean {
  const [addr, bits, extra] = entry.split("/");
  if (extra !== undefined) return false;
  const version = isIP(addr);
  if (!version) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}
const ipList = (v: string | null) => {
  if (!v) return [];
  const bad = v.split(",").map((s) => s.trim()).filter((s) => s && !isIpOrCidr(s));
  return bad.length ? [`${bad.join(", ")} is an invalid IP address range`] : [];
};
/** GitLab's QualifiedDomainArrayValidator, plus a syntax check of entries that look like addresses. */
const domainList = (max?: number) => (v: string[]) => {
  const errors: string[] = [];
  if (max !== undefined && v.length > max) errors.push(`is too long (maximum is ${max} entries)`);
  if (v.some((e) => /<[^>]+>/.test(e))) errors.push("entries cannot contain HTML tags");
  if (v.some((e) => e.length > 255)) errors.push("entries cannot be larger than 255 characters");
  const looksLikeIp = (e: string) => /^[\d.]+(\/\d+)?$/.test(e) || (e.includes(":") && /^[0-9a-f:.]+(\/\d+)?$/i.test(e));
  if (v.some((e) => looksLikeIp(e) && !isIpOrCidr(e))) errors.push("entries must be valid IP addresses, IP ranges or domain names");
  return errors;
};

/** UntrustedRegexpValidator (RE2 there, JavaScript's RegExp here). */
function untrustedRegexp(v: string | null): string[] {
  if (v === null || v === "") return [];
  try {
    new RegExp(v);
    return [];
  } catch (err) {
    return [`not valid RE2 syntax: ${(err as Error).message}`];
  }
}

export const LOCALES = ["en", "bg", "cs_CZ", "da_DK", "de", "eo", "es", "fil_PH", "fr", "gl_ES", "id_ID", "it", "ja", "ko", "nb_NO", "nl_NL", "pl_PL", "pt_BR", "ro_RO", "ru", "si_LK", "sv_SE", "tr_TR", "uk", "zh_CN", "zh_HK", "zh_TW"];

/** Gitlab::Access::BranchProtection levels and the protection object each one means. */
export const BRANCH_PROTECTION: Record<number, { allowed_to_push: { access_level: number }[]; allow_force_push: boolean; allowed_to_merge: { access_level: number }[]; developer_can_initial_push?: boolean }> = {
  0: { allowed_to_push: [{ access_level: 30 }], allow_force_push: true, allowed_to_merge: [{ access_level: 30 }] },
  1: { allowed_to_push: [{ access_level: 30 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }] },
  2: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }] },
  3: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 30 }] },
  4: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }], developer_can_initial_push: true },
};

const PROTECTION_LEVELS = [0, 30, 40, 60];
function protectionDefaultsErrors(v: Record<string, unknown>): string[] {
  const levels = (list: unknown) =>
    Array.isArray(list) && list.every((x) => typeof x === "object" && x !== null && PROTECTION_LEVELS.includes(Number((x as { access_level?: unknown }).access_level)));
  const known = ["allowed_to_push", "allowed_to_merge", "allow_force_push", "developer_can_initial_push", "code_owner_approval_required"];
  const ok =
    Object.keys(v).every((k) => known.includes(k)) &&
    (v.allowed_to_push === undefined || levels(v.allowed_to_push)) &&
    (v.allowed_to_merge === undefined || levels(v.allowed_to_merge)) &&
    ["allow_force_push", "developer_can_initial_push", "code_owner_approval_required"].every((k) => v[k] === undefined || typeof v[k] === "boolean");
  return ok ? [] : ["must be a valid json schema"];
}

const STORAGE_NAME = /^[A-Za-z0-9_.-]+$/;
function storageWeightsErrors(v: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (Object.keys(v).length === 0) errors.push("can't be blank");
  for (const [name, w] of Object.entries(v)) {
    if (!STORAGE_NAME.test(name)) errors.push(`storage name ${name} is invalid`);
    else if (typeof w !== "number" || !Number.isInteger(w)) errors.push(`${name} weight must be an integer`);
    else if (w < 0 || w > 100) errors.push(`${name} weight must be between 0 and 100`);
  }
  if (!errors.length && !Object.values(v).some((w) => (w as number) > 0)) errors.push("at least one storage must have a weight greater than 0");
  return errors;
}

// ---- Signup, projects and groups ---------------------------------------------------------------
def("default_projects_limit", 100_000, { check: gte(0) });
def("signup_enabled", true);
def("require_admin_approval_after_user_signup", true);
def("can_create_group", true);
def("user_defaults_to_private_profile", false);
def("minimum_password_length", 8, { check: (v: number | null) => (v === null ? ["can't be blank"] : between(8, 128)(v)) });
def("email_restrictions_enabled", false);
def("email_restrictions", null, { check: untrustedRegexp });
def("allow_account_deletion", true);
def("updating_name_disabled_for_users", false);
// ---- Branch protection -------------------------------------------------------------------------
def("default_branch_protection", 2);
def("default_branch_protection_defaults", BRANCH_PROTECTION[2], { check: protectionDefaultsErrors });
// ---- Defaults ----------------------------------------------------------------------------------
def("default_preferred_language", "en", { check: oneOf(LOCALES) });
def("default_ci_config_path", null, { check: maxLength(255) });
def("default_project_visibility", "private");
def("default_group_visibility", "private");
def("default_snippet_visibility", "private");
def("restricted_visibility_levels", []);
def("home_page_url", null, { check: url });
def("after_sign_out_path", null, { check: url });
def("first_day_of_week", 0, { check: oneOf([0, 1, 6]) });
// ---- Sign-in and sessions ----------------------------------------------------------------------
def("failed_login_attempts_unlock_period_in_minutes", null, { check: gt(0) });
def("max_login_attempts", null, { check: gt(0) });
def("sign_in_restrictions", {});
def("password_authentication_enabled_for_web", true);
def("session_expire_delay", 10_080, { check: between(0, 5_256_000) });
def("admin_mode", false);
def("user_oauth_applications", true);
def("user_show_add_ssh_key_message", true);
// ---- Sizes and timeouts ------------------------------------------------------------------------
def("max_attachment_size", 100, { check: gt(0) });
def("max_decompressed_archive_size", 25_600, { check: gte(0) });
def("max_export_size", 0, { check: gte(0) });
def("max_import_size", 0, { check: gte(0) });
def("max_import_remote_file_size", 10_240, { check: gte(0) });
def("decompress_archive_file_timeout", 210, { check: gte(0) });
def("snippet_size_limit", 52_428_800, { check: gt(0) });
def("wiki_page_max_content_bytes", 52_428_800, { check: gte(1024) });
def("bulk_import_max_download_file_size", 5120, { check: gte(0) });
def("terminal_max_session_time", 0, { check: gte(0) });
// ---- Network and domain policy -----------------------------------------------------------------
def("outbound_local_requests_whitelist", [], { check: domainList(1000) });
def("domain_allowlist", [], { check: domainList() });
def("domain_denylist_enabled", false);
def("domain_denylist", [], { check: domainList() });
def("allow_local_requests_from_web_hooks_and_services", false);
def("allow_local_requests_from_system_hooks", true);
def("globally_allowed_ips", "", { check: ipList });
def("geo_node_allowed_ips", "0.0.0.0/0, ::/0", { check: ipList });
// ---- Container registry ------------------------------------------------------------------------
def("container_expiration_policies_enable_historic_entries", false);
def("container_registry_cleanup_tags_service_max_list_size", 200, { check: gte(0) });
def("container_registry_delete_tags_service_timeout", 250, { check: gte(0) });
def("container_registry_expiration_policies_caching", true);
def("container_registry_expiration_policies_worker_capacity", 4, { check: gte(0) });
def("container_registry_token_expire_delay", 5, { check: gt(0) });
// ---- Package registry --------------------------------------------------------------------------
def("package_registry_cleanup_policies_worker_capacity", 2, { check: gte(0) });
def("package_registry_allow_anyone_to_pull_option", true);
def("maven_package_requests_forwarding", true);
def("npm_package_requests_forwarding", true);
def("pypi_package_requests_forwarding", true);
def("keep_latest_artifact", true);
// ---- Storage -----------------------------------------------------------------------------------
def("repository_storages_weighted", { default: 100 }, { check: storageWeightsErrors });
// ---- Key restrictions --------------------------------------------------------------------------
def("rsa_key_restriction", 0);
def("dsa_key_restriction", -1);
def("ecdsa_key_restriction", 0);
def("ed25519_key_restriction", 0);
def("ecdsa_sk_key_restriction", 0);
def("ed25519_sk_key_restriction", 0);
// ---- Terms and profile -------------------------------------------------------------------------
def("enforce_terms", false);
def("terms", null, { check: requiredIf("enforce_terms") });
def("performance_bar_allowed_group_id", null);
def("file_template_project_id", null);
def("local_markdown_version", 0, { check: gte(0) });
def("polling_interval_multiplier", 1, { check: gte(0) });
def("security_txt_content", null, { check: maxLength(2048) });
def("personal_access_token_prefix", "glpat-", {
  check: (v: string | null) => [...maxLength(20)(v), ...(v && !/^[a-zA-Z0-9_+=/@:.-]+$/.test(v) ? ["can contain only letters of the Base64 alphabet (RFC4648) with the addition of '@', ':' and '.'"] : [])],
});
def("require_personal_access_token_expiry", true);
def("silent_mode_enabled", false);
def("silent_admin_exports_enabled", false);
// ---- Asset proxy -------------------------------------------------------------------------------
def("asset_proxy_enabled", false);
def("asset_proxy_url", null, { check: urlRequiredIf("asset_proxy_enabled") });
def("asset_proxy_allowlist", [], { check: domainList() });
// ---- External authorization --------------------------------------------------------------------
def("external_authorization_service_enabled", false);
def("external_authorization_service_url", null, { check: urlRequiredIf("external_authorization_service_enabled") });
def("external_authorization_service_default_label", null, { check: requiredIf("external_authorization_service_enabled") });
def("external_authorization_service_timeout", 0.5, { check: (v: number | null) => (v !== null && (v <= 0 || v > 10) ? ["must be greater than 0 and less than or equal to 10"] : []) });
// ---- External pipeline validation --------------------------------------------------------------
def("external_pipeline_validation_service_timeout", null, { check: gt(0) });
def("external_pipeline_validation_service_token", null, { secret: true });
def("external_pipeline_validation_service_url", null, { check: url });
// ---- Rate and concurrency limits ---------------------------------------------------------------
const limits: [SettingName, number][] = [
  ["issues_create_limit", 0],
  ["notes_create_limit", 300],
  ["raw_blob_request_limit", 300],
  ["project_jobs_api_rate_limit", 600],
  ["projects_api_rate_limit_unauthenticated", 400],
  ["users_api_limit_followers", 100],
  ["users_api_limit_following", 100],
  ["users_api_limit_status", 240],
  ["users_api_limit_ssh_keys", 120],
  ["users_api_limit_ssh_key", 120],
  ["users_api_limit_gpg_keys", 120],
  ["users_api_limit_gpg_key", 120],
  ["downstream_pipeline_trigger_limit_per_project_user_sha", 0],
  ["bulk_import_concurrent_pipeline_batch_limit", 25],
  ["concurrent_relation_batch_export_limit", 8],
  ["concurrent_github_import_jobs_limit", 1000],
  ["concurrent_bitbucket_import_jobs_limit", 100],
  ["concurrent_bitbucket_server_import_jobs_limit", 100],
];
for (const [name, dflt] of limits) def(name, dflt, { check: gte(0) });
def("rate_limiting_response_text", null, { check: maxLength(255) });
// ---- Premium and Ultimate ----------------------------------------------------------------------
def("allow_all_integrations", true);
def("allowed_integrations", []);
def("group_owners_can_manage_default_branch_protection", true);
def("geo_status_timeout", 10, { check: gt(0) });
def("default_project_deletion_protection", false);
def("deletion_adjourned_period", 30, { check: between(1, 90) });
def("disable_personal_access_tokens", false);
def("delete_unconfirmed_users", false);
def("unconfirmed_users_delete_after_days", 7, { check: gt(0) });
def("use_clickhouse_for_analytics", false);
def("virtual_registries_endpoints_api_limit", 1000, { check: gte(0) });
def("security_policy_global_group_approvers_enabled", true);
def("security_approval_policies_limit", 5, { check: between(5, 20) });
def("scan_execution_policies_action_limit", 0, { check: between(0, 20) });
def("scan_execution_policies_schedule_limit", 0, { check: between(0, 20) });
def("secret_push_protection_available", false);
def("enable_member_promotion_management", false);

export const FIELD_BY_NAME = new Map(F.map((f) => [f.name, f]));
/** In the contract's order (the order GET renders them); a setting type without its default here fails at load. */
export const SETTING_FIELDS: readonly SettingField[] = Object.keys(SETTING_TYPES).map((name) => {
  const field = FIELD_BY_NAME.get(name);
  if (!field) throw new Error(`admin: setting ${name} has no default`);
  return field;
});
export const SECRET_FIELDS: readonly string[] = F.filter((f) => f.secret).map((f) => f.name);

export { ALIASES, RENDERED_ALIASES } from "@collab/admin-contract";

/** Removed from the API: not declared, so Grape drops them (they never reach the settings). */
export const REMOVED_FIELDS = ["delayed_project_deletion", "delayed_group_deletion", "in_product_marketing_emails_enabled", "repository_storages", "user_email_lookup_limit"];

const TIER_RANK: Record<Tier, number> = { free: 0, premium: 1, ultimate: 2 };
export const licensed = (f: SettingField, tier: Tier) => TIER_RANK[f.tier] <= TIER_RANK[tier];

export const defaultValues = (): Record<string, unknown> => Object.fromEntries(F.map((f) => [f.name, structuredClone(f.default)]));
