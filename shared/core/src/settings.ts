import type { Context, ServiceBroker, ServiceSchema } from "moleculer";
import type { Visibility } from "./access";

/**
 * The instance's application settings as every process sees them: a snapshot loaded at start from
 * the admin service (`admin.settings.current`) and replaced, whole, by the `admin.settings.changed`
 * event that every PUT broadcasts — so a change acts in every service at once, with no cache lag.
 * The admin service owns the full field list, validation and storage (services/admin).
 */
export const SETTINGS_EVENTS = { changed: "admin.settings.changed" } as const;

/** The settings other services act on; the snapshot carries every field, these are typed. */
export interface EnforcedSettings {
  default_projects_limit: number;
  default_project_visibility: Visibility;
  default_group_visibility: Visibility;
  restricted_visibility_levels: Visibility[];
  signup_enabled: boolean;
  issues_create_limit: number;
  notes_create_limit: number;
  projects_api_rate_limit_unauthenticated: number;
  rate_limiting_response_text: string | null;
  max_import_size: number;
  deletion_adjourned_period: number;
  repository_storages_weighted: Record<string, number>;
  /** Self sign-up (POST /users outside /api/v4, in accounts) and what it checks. */
  require_admin_approval_after_user_signup: boolean;
  minimum_password_length: number;
  domain_allowlist: string[];
  domain_denylist_enabled: boolean;
  domain_denylist: string[];
  email_restrictions_enabled: boolean;
  email_restrictions: string | null;
  user_defaults_to_private_profile: boolean;
  /** can_create_group of new users (POST /users and self sign-up) when the request gives none. */
  can_create_group: boolean;
  /** Token rotation: a new token without expires_at expires in a week when true, never otherwise. */
  require_personal_access_token_expiry: boolean;
  /** Ultimate: promoting a user with no billable role into one waits for an administrator (namespaces). */
  enable_member_promotion_management: boolean;
}

export type SettingsSnapshot = EnforcedSettings & Record<string, unknown>;

/** GitLab's defaults for the enforced fields: what a process uses until its first load. */
export const ENFORCED_SETTINGS_DEFAULTS: EnforcedSettings = {
  default_projects_limit: 100_000,
  default_project_visibility: "private",
  default_group_visibility: "private",
  restricted_visibility_levels: [],
  signup_enabled: true,
  issues_create_limit: 0,
  notes_create_limit: 300,
  projects_api_rate_limit_unauthenticated: 400,
  rate_limiting_response_text: null,
  max_import_size: 0,
  deletion_adjourned_period: 30,
  repository_storages_weighted: { default: 100 },
  require_admin_approval_after_user_signup: true,
  minimum_password_length: 8,
  domain_allowlist: [],
  domain_denylist_enabled: false,
  domain_denylist: [],
  email_restrictions_enabled: false,
  email_restrictions: null,
  user_defaults_to_private_profile: false,
  can_create_group: true,
  require_personal_access_token_expiry: true,
  enable_member_promotion_management: false,
};

/** What the event and the load carry: the settings and a version (updated_at in ms; 0 = defaults). */
export interface SettingsMessage {
  version: number;
  settings: SettingsSnapshot;
}

let snapshot: SettingsMessage = { version: 0, settings: { ...ENFORCED_SETTINGS_DEFAULTS } };

/** The current settings of this process. */
export const currentSettings = (): SettingsSnapshot => snapshot.settings;

/** Replaces the snapshot unless `next` is older than what this process already has. */
export function applySettings(next: SettingsMessage, force = false): boolean {
  if (!force && next.version < snapshot.version) return false;
  snapshot = { version: next.version, settings: { ...ENFORCED_SETTINGS_DEFAULTS, ...next.settings } };
  return true;
}

/** Back to the defaults (tests empty every table between cases, the settings row included). */
export function resetSettings() {
  snapshot = { version: 0, settings: { ...ENFORCED_SETTINGS_DEFAULTS } };
}

/**
 * Loads the snapshot from the admin service once it is reachable; never blocks a service's start.
 * The wait ends with the broker: moleculer's waitForServices would hold the process open for its
 * whole timeout after a stop.
 */
export async function loadSettings(broker: ServiceBroker, timeoutMs = 60_000): Promise<void> {
  try {
    const available = () => broker.registry.getServiceList({ onlyAvailable: true }).some((s) => s.name === "admin");
    for (const deadline = Date.now() + timeoutMs; !available(); ) {
      if (broker.stopping) return;
      if (Date.now() > deadline) throw new Error(`admin not reachable within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100).unref());
    }
    const msg = await broker.call<SettingsMessage, object>("admin.settings.current", {});
    applySettings(msg);
  } catch (err) {
    broker.logger.warn(`application settings not loaded (${(err as Error).message}); using defaults until the next change`);
  }
}

/**
 * Mixin for any service (gateway included) that acts on settings. In one process several services
 * share the snapshot; applying the same message twice is harmless.
 */
export const settingsMixin: ServiceSchema = {
  name: "settings-client",
  events: {
    [SETTINGS_EVENTS.changed](ctx: Context<SettingsMessage>) {
      applySettings(ctx.params);
    },
    // Tests empty every table and broadcast this between cases: the stored settings are gone.
    "gateway.caches.clear"() {
      resetSettings();
    },
  },
  started(this: { broker: ServiceBroker }) {
    void loadSettings(this.broker);
  },
};
