import type { Context, ServiceBroker, ServiceSchema } from "moleculer";
import { z } from "zod";
import type { Visibility } from "./access";
import { actionContract, broadcastContract, call } from "./contract";
import { ApiError } from "./errors";

/**
 * The instance's application settings as every process sees them: a snapshot loaded at start from
 * the admin service (`admin.settings.current`) and replaced, whole, by the `admin.settings.changed`
 * event that every PUT broadcasts — so a change acts in every service at once — and asked for
 * again every 15 s and after a reconnect, which catches a broadcast a process missed. The admin
 * service owns the full field list, validation and storage (services/admin).
 */

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

/**
 * The admin service's actions this module calls, declared here (shared/core cannot import the
 * admin contract, which depends on it) and re-exported by the admin contract as its own.
 */
export const SETTINGS_ACTIONS = {
  /**
   * The snapshot every process loads at start: `{ version, settings }`, the settings without
   * credentials. Their fields are the admin service's (services/admin); the enforced ones are typed.
   */
  current: actionContract("admin.settings.current", {
    input: () => z.object({}),
    output: () =>
      z.object({
        version: z.number().int(),
        settings: z.custom<SettingsSnapshot>((v) => typeof v === "object" && v !== null && !Array.isArray(v), "the settings are an object"),
      }),
    idempotent: true,
  }),
};

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

/**
 * `admin.settings.changed`: the admin service's broadcast of the whole new snapshot. Declared here,
 * beside the handler every process has (settingsEvents), since @collab/core cannot import admin's
 * contract; admin's contract re-exports it (Admin.events.settingsChanged).
 */
export const SettingsChanged = broadcastContract("admin.settings.changed", () =>
  z.object({ version: z.number(), settings: z.custom<SettingsSnapshot>((v) => typeof v === "object" && v !== null) }),
);

/**
 * `gateway.caches.clear`: tests empty every table and broadcast this between cases (TestApp.reset);
 * every process drops what it keeps of the stored data (here: the settings snapshot).
 */
export const CachesClear = broadcastContract("gateway.caches.clear", () => z.object({}));

let snapshot: SettingsMessage = { version: 0, settings: { ...ENFORCED_SETTINGS_DEFAULTS } };
/** Whether this process has been given its settings (loaded from admin, or applied). */
let loaded = false;
const waiting = new Set<() => void>();

/**
 * The current settings of this process. Until they are loaded from the admin service this throws
 * (503, the request can be sent again): no process acts on defaults it was not given — sign-up
 * open, a 30-day deletion period the purge worker would apply — because admin was away when it
 * started.
 */
export function currentSettings(): SettingsSnapshot {
  if (!loaded) throw new ApiError(503, { message: "503 Service Unavailable" }, "SETTINGS_NOT_LOADED", { retryAfter: 5 });
  return snapshot.settings;
}

export const settingsLoaded = () => loaded;

/** Whether a service of this process acts on settings (uses settingsMixin): its readiness waits for them. */
let wanted = false;
export const settingsWanted = () => wanted;

/** Resolves once this process has its settings (tests wait for it before their first request). */
export function settingsReady(): Promise<void> {
  return loaded ? Promise.resolve() : new Promise((resolve) => waiting.add(resolve));
}

function markLoaded() {
  loaded = true;
  for (const resolve of waiting) resolve();
  waiting.clear();
}

/** Replaces the snapshot unless `next` is older than what this process already has. */
export function applySettings(next: SettingsMessage, force = false): boolean {
  if (!force && loaded && next.version < snapshot.version) return false;
  snapshot = { version: next.version, settings: { ...ENFORCED_SETTINGS_DEFAULTS, ...next.settings } };
  markLoaded();
  return true;
}

/** Back to the defaults (tests empty every table between cases, the settings row included). */
export function resetSettings() {
  snapshot = { version: 0, settings: { ...ENFORCED_SETTINGS_DEFAULTS } };
  markLoaded();
}

/** How often a process asks admin for the settings again: catches a change whose broadcast it missed. */
const REFRESH_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
const adminAvailable = (broker: ServiceBroker) => broker.registry.getServiceList({ onlyAvailable: true }).some((s) => s.name === "admin");

/** One fetch of the current settings from admin; false when it is not reachable now. */
async function fetchSettings(broker: ServiceBroker): Promise<boolean> {
  if (!adminAvailable(broker)) return false;
  try {
    applySettings(await call(broker, SETTINGS_ACTIONS.current, {}, { timeout: 5_000, retries: 0 }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Loads the settings from the admin service, retrying (backing off to 5 s) until it answers or the
 * broker stops; then asks again every REFRESH_MS, and at once after the transporter reconnects,
 * so a change broadcast while this process could not hear it still arrives. One loop per broker,
 * however many of its services use the mixin.
 */
const loops = new WeakSet<ServiceBroker>();
function keepSettings(broker: ServiceBroker): void {
  wanted = true;
  if (loops.has(broker)) return;
  loops.add(broker);
  void (async () => {
    for (let attempt = 0; !broker.stopping; attempt++) {
      if (await fetchSettings(broker)) break;
      if (attempt === 10) broker.logger.warn("application settings not loaded yet: waiting for the admin service (requests that need them answer 503)");
      await sleep(Math.min(5_000, 200 * 2 ** Math.min(attempt, 5)));
    }
    while (!broker.stopping) {
      await sleep(REFRESH_MS);
      if (!broker.stopping) await fetchSettings(broker);
    }
  })().catch((err: Error) => broker.logger.warn({ err: err.message }, "application settings loop failed"));
}

/** The events that keep a process's snapshot current (admin uses them alone: it loads from its own table). */
export const settingsEvents: NonNullable<ServiceSchema["events"]> = {
  [SettingsChanged.name](ctx: Context<SettingsMessage>) {
    applySettings(ctx.params);
  },
  // Tests empty every table and broadcast this between cases: the stored settings are gone.
  [CachesClear.name]() {
    resetSettings();
  },
  "$transporter.connected"(this: { broker: ServiceBroker }) {
    void fetchSettings(this.broker);
  },
};

/**
 * Mixin for any service (gateway included) that acts on settings: the process loads them in the
 * background (never blocking a start: liveness stays up while admin is away), reports unready and
 * answers 503 where they are needed until it has them, and keeps them current. In one process
 * several services share the snapshot; applying the same message twice is harmless.
 */
export const settingsMixin: ServiceSchema = {
  name: "settings-client",
  events: settingsEvents,
  started(this: { broker: ServiceBroker }) {
    keepSettings(this.broker);
  },
};
