import { gArray, gBool, gEnum, gInt, gString, VISIBILITIES } from "@collab/core";
import { z } from "zod";

/**
 * The type of every application setting the API reads and writes, in the order GET renders them:
 * the parser of its PUT param (Grape's type: a wrong type or value is a 400 {"error": "<name> is
 * invalid"}), its value as GET and PUT answer it, and the tier that licenses it (an unlicensed
 * field is neither shown nor written). Defaults and model validations are the service's
 * (src/api/settings.fields.ts).
 */
export type Tier = "free" | "premium" | "ultimate";

export interface SettingType<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, T extends Tier = Tier> {
  input: () => I;
  output: () => O;
  tier: T;
}

/** A kind of setting: its param parser and its answered value, for a field of some tier (free by default). */
const kind =
  <I extends z.ZodType, O extends z.ZodType>(input: () => I, output: () => O) =>
  <T extends Tier = "free">(tier?: T): SettingType<I, O, T> => ({ input, output, tier: (tier ?? "free") as T });

const bool = kind(() => gBool(), () => z.boolean());
const int = kind(() => gInt().nullable(), () => z.number().int().nullable());
const str = kind(() => gString().nullable(), () => z.string().nullable());
const float = kind(
  () => z.preprocess((v) => (typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : v), z.number({ error: "is invalid" }).nullable()),
  () => z.number().nullable(),
);
const visibility = kind(() => gEnum(VISIBILITIES as unknown as ["private", "internal", "public"]), () => z.enum(["private", "internal", "public"]));
const strings = kind(() => gArray(z.string({ error: "is invalid" })), () => z.array(z.string()));
const intValues = (values: readonly number[]) => kind(() => gInt().refine((n) => values.includes(n), { error: "does not have a valid value" }), () => z.number().int());
/** A JSON object the administrator writes (checked by the model where GitLab checks it). */
const object = kind(() => z.record(z.string(), z.unknown(), { error: "is invalid" }), () => z.record(z.string(), z.unknown()));
/** repository_storages_weighted: storage name to an integer weight (the model refuses anything else). */
const weights = kind(() => z.record(z.string(), z.unknown(), { error: "is invalid" }), () => z.record(z.string(), z.number().int()));

export const SETTING_TYPES = {
  default_projects_limit: int(),
  signup_enabled: bool(),
  require_admin_approval_after_user_signup: bool(),
  can_create_group: bool(),
  user_defaults_to_private_profile: bool(),
  minimum_password_length: int(),
  email_restrictions_enabled: bool(),
  email_restrictions: str(),
  allow_account_deletion: bool(),
  updating_name_disabled_for_users: bool(),
  default_branch_protection: intValues([0, 1, 2, 3, 4])(),
  default_branch_protection_defaults: object(),
  default_preferred_language: str(),
  default_ci_config_path: str(),
  default_project_visibility: visibility(),
  default_group_visibility: visibility(),
  default_snippet_visibility: visibility(),
  restricted_visibility_levels: strings(),
  home_page_url: str(),
  after_sign_out_path: str(),
  first_day_of_week: int(),
  failed_login_attempts_unlock_period_in_minutes: int(),
  max_login_attempts: int(),
  sign_in_restrictions: object(),
  password_authentication_enabled_for_web: bool(),
  session_expire_delay: int(),
  admin_mode: bool(),
  user_oauth_applications: bool(),
  user_show_add_ssh_key_message: bool(),
  max_attachment_size: int(),
  max_decompressed_archive_size: int(),
  max_export_size: int(),
  max_import_size: int(),
  max_import_remote_file_size: int(),
  decompress_archive_file_timeout: int(),
  snippet_size_limit: int(),
  wiki_page_max_content_bytes: int(),
  bulk_import_max_download_file_size: int(),
  terminal_max_session_time: int(),
  outbound_local_requests_whitelist: strings(),
  domain_allowlist: strings(),
  domain_denylist_enabled: bool(),
  domain_denylist: strings(),
  allow_local_requests_from_web_hooks_and_services: bool(),
  allow_local_requests_from_system_hooks: bool(),
  globally_allowed_ips: str(),
  geo_node_allowed_ips: str("premium"),
  container_expiration_policies_enable_historic_entries: bool(),
  container_registry_cleanup_tags_service_max_list_size: int(),
  container_registry_delete_tags_service_timeout: int(),
  container_registry_expiration_policies_caching: bool(),
  container_registry_expiration_policies_worker_capacity: int(),
  container_registry_token_expire_delay: int(),
  package_registry_cleanup_policies_worker_capacity: int(),
  package_registry_allow_anyone_to_pull_option: bool(),
  maven_package_requests_forwarding: bool(),
  npm_package_requests_forwarding: bool(),
  pypi_package_requests_forwarding: bool(),
  keep_latest_artifact: bool(),
  repository_storages_weighted: weights(),
  rsa_key_restriction: intValues([0, 1024, 2048, 3072, 4096, -1])(),
  dsa_key_restriction: intValues([0, 1024, 2048, 3072, -1])(),
  ecdsa_key_restriction: intValues([0, 256, 384, 521, -1])(),
  ed25519_key_restriction: intValues([0, 256, -1])(),
  ecdsa_sk_key_restriction: intValues([0, 256, -1])(),
  ed25519_sk_key_restriction: intValues([0, 256, -1])(),
  enforce_terms: bool(),
  terms: str(),
  performance_bar_allowed_group_id: int(),
  file_template_project_id: int(),
  local_markdown_version: int(),
  polling_interval_multiplier: float(),
  security_txt_content: str(),
  personal_access_token_prefix: str(),
  require_personal_access_token_expiry: bool(),
  silent_mode_enabled: bool(),
  silent_admin_exports_enabled: bool(),
  asset_proxy_enabled: bool(),
  asset_proxy_url: str(),
  asset_proxy_allowlist: strings(),
  external_authorization_service_enabled: bool(),
  external_authorization_service_url: str(),
  external_authorization_service_default_label: str(),
  external_authorization_service_timeout: float(),
  external_pipeline_validation_service_timeout: int(),
  external_pipeline_validation_service_token: str(),
  external_pipeline_validation_service_url: str(),
  issues_create_limit: int(),
  notes_create_limit: int(),
  raw_blob_request_limit: int(),
  project_jobs_api_rate_limit: int(),
  projects_api_rate_limit_unauthenticated: int(),
  users_api_limit_followers: int(),
  users_api_limit_following: int(),
  users_api_limit_status: int(),
  users_api_limit_ssh_keys: int(),
  users_api_limit_ssh_key: int(),
  users_api_limit_gpg_keys: int(),
  users_api_limit_gpg_key: int(),
  downstream_pipeline_trigger_limit_per_project_user_sha: int(),
  bulk_import_concurrent_pipeline_batch_limit: int(),
  concurrent_relation_batch_export_limit: int(),
  concurrent_github_import_jobs_limit: int(),
  concurrent_bitbucket_import_jobs_limit: int(),
  concurrent_bitbucket_server_import_jobs_limit: int(),
  rate_limiting_response_text: str(),
  allow_all_integrations: bool("premium"),
  allowed_integrations: strings("premium"),
  group_owners_can_manage_default_branch_protection: bool("premium"),
  geo_status_timeout: int("premium"),
  default_project_deletion_protection: bool("premium"),
  deletion_adjourned_period: int("premium"),
  disable_personal_access_tokens: bool("premium"),
  delete_unconfirmed_users: bool("premium"),
  unconfirmed_users_delete_after_days: int("premium"),
  use_clickhouse_for_analytics: bool("premium"),
  virtual_registries_endpoints_api_limit: int("premium"),
  security_policy_global_group_approvers_enabled: bool("ultimate"),
  security_approval_policies_limit: int("ultimate"),
  scan_execution_policies_action_limit: int("ultimate"),
  scan_execution_policies_schedule_limit: int("ultimate"),
  secret_push_protection_available: bool("ultimate"),
  enable_member_promotion_management: bool("ultimate"),
};

export type SettingName = keyof typeof SETTING_TYPES;

/**
 * Older names still accepted as params and still rendered, kept in step with their replacements
 * (GitLab's "support legacy names" blocks of the settings API and its entity's `as:` exposures).
 */
export const ALIASES: Record<string, SettingName> = {
  signin_enabled: "password_authentication_enabled_for_web",
  password_authentication_enabled: "password_authentication_enabled_for_web",
  allow_local_requests_from_hooks_and_services: "allow_local_requests_from_web_hooks_and_services",
  asset_proxy_whitelist: "asset_proxy_allowlist",
  domain_whitelist: "domain_allowlist",
  domain_blacklist_enabled: "domain_denylist_enabled",
  domain_blacklist: "domain_denylist",
};
/** Aliases the GET answer renders too (the rest are input only). */
export const RENDERED_ALIASES = ["signin_enabled", "password_authentication_enabled", "allow_local_requests_from_hooks_and_services", "asset_proxy_whitelist"] as const;

const shape: Record<string, z.ZodType> = {};
for (const [name, type] of Object.entries(SETTING_TYPES) as [string, SettingType][]) shape[name] = type.input().optional();
for (const [alias, target] of Object.entries(ALIASES)) shape[alias] = (shape[target] as z.ZodOptional<z.ZodType>).unwrap().optional();
// domain_blacklist_enabled / domain_whitelist follow their targets' types
shape.domain_blacklist_enabled = gBool().optional();
shape.domain_whitelist = gArray(z.string({ error: "is invalid" })).optional();

/** Every param PUT /application/settings declares, in declaration order (for at_least_one_of). */
export const SETTINGS_PARAM_NAMES = Object.keys(shape);

const EXCLUSIVE = [["password_authentication_enabled_for_web", "password_authentication_enabled", "signin_enabled"]];

export const UpdateSettingsParams = z.object(shape).superRefine((v: Record<string, unknown>, ctx) => {
  for (const group of EXCLUSIVE) {
    const given = group.filter((k) => v[k] !== undefined);
    if (given.length > 1) ctx.addIssue({ code: "custom", path: [], message: `${given.join(", ")} are mutually exclusive` });
  }
  // Grape's `given domain_denylist_enabled: ->(val) { val } do requires :domain_denylist`.
  for (const [flag, list] of [["domain_denylist_enabled", "domain_denylist"], ["domain_blacklist_enabled", "domain_blacklist"]]) {
    if (v[flag] === true && v[list] === undefined) ctx.addIssue({ code: "custom", path: [], message: `${list} is missing` });
  }
  if (!SETTINGS_PARAM_NAMES.some((k) => v[k] !== undefined))
    ctx.addIssue({ code: "custom", path: [], message: `${SETTINGS_PARAM_NAMES.join(", ")} are missing, at least one parameter must be provided` });
});
export type UpdateSettingsParams = Record<string, unknown>;

/** The answered value of each setting: optional when a tier above free licenses it (shown on that tier only). */
type SettingsShape = {
  [K in SettingName]: (typeof SETTING_TYPES)[K] extends SettingType<z.ZodType, infer O, infer T> ? (T extends "free" ? O : z.ZodOptional<O>) : never;
};
const settingsShape = () =>
  Object.fromEntries(
    (Object.entries(SETTING_TYPES) as [string, SettingType][]).map(([name, type]) => [name, type.tier === "free" ? type.output() : type.output().optional()]),
  ) as SettingsShape;

const T = SETTING_TYPES;

/** Entities::ApplicationSetting: the licensed settings, the legacy names GET renders, id and timestamps. */
export const ApplicationSettingsSchema = z.object({
  id: z.number().int(),
  ...settingsShape(),
  signin_enabled: T.password_authentication_enabled_for_web.output(),
  password_authentication_enabled: T.password_authentication_enabled_for_web.output(),
  allow_local_requests_from_hooks_and_services: T.allow_local_requests_from_web_hooks_and_services.output(),
  asset_proxy_whitelist: T.asset_proxy_allowlist.output(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ApplicationSettings = z.output<typeof ApplicationSettingsSchema>;
