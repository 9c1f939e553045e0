import type { EventKind } from "./events";

/**
 * How the catalogue describes an integration kind: its GitLab slug, its parameters (names, types,
 * required flags, defaults) and the event booleans its set-up call accepts. `secret` fields are
 * write-only (GitLab's password fields, tokens, the chat webhook): stored sealed, used, never
 * presented in `properties`.
 */
export type FieldType = "string" | "url" | "boolean" | "integer" | "list" | { enum: readonly [string, ...string[]] };

export interface FieldDef {
  name: string;
  type: FieldType;
  required?: boolean;
  secret?: boolean;
  default?: string | boolean | number | null;
  /** A URL field that may be left blank (packagist's server). */
  allowBlank?: boolean;
}

export interface KindDef {
  slug: string;
  title: string;
  fields: FieldDef[];
  events: EventKind[];
  /** GitLab's PROJECT_LEVEL_ONLY_INTEGRATION_NAMES (and EE's): no group-level integration. */
  projectOnly?: boolean;
  /** Takes comment_on_event_enabled (Jira): kept with the event booleans. */
  commentOnEvent?: boolean;
}

/** The booleans a set-up takes besides the fields: the kind's event flags, and comment_on_event_enabled where it applies. */
export const flagsOf = (kind: KindDef): string[] => [...kind.events, ...(kind.commentOnEvent ? ["comment_on_event_enabled"] : [])];

export const BRANCHES = { enum: ["all", "default", "protected", "default_and_protected"] } as const;

/** Required URL fields. */
export const urls = (...names: string[]): FieldDef[] => names.map((name) => ({ name, type: "url", required: true }));
/** A required write-only string. */
export const secret = (name: string): FieldDef => ({ name, type: "string", required: true, secret: true });
export const required = (name: string): FieldDef => ({ name, type: "string", required: true });
export const optional = (name: string, type: FieldType = "string", dflt: FieldDef["default"] = null): FieldDef => ({ name, type, default: dflt });
export const SSL_VERIFICATION: FieldDef = { name: "enable_ssl_verification", type: "boolean", default: true };
