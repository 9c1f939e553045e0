import { MAX_INT } from "@collab/core";
import type { ScimCreateParams } from "@collab/accounts-contract";
import type { z } from "zod";

/**
 * The SCIM request bodies (params in @collab/accounts-contract) read as GitLab's
 * Gitlab::Scim::ParamsParser reads them (AttributeTransform's mapping of SCIM attributes to
 * GitLab's: id/externalId → extern_uid, userName → username, displayName/name.formatted → name,
 * the work (or primary) email → email, active → active).
 */

/** SamlProvider#default_membership_role: Gitlab::Access levels, minimal access included. */
export const MEMBERSHIP_ROLES = [5, 10, 15, 20, 30, 40, 50] as const;

/** What a SCIM request says about a user, in GitLab's names. */
export interface ScimAttributes {
  extern_uid?: string;
  username?: string;
  email?: string;
  name?: string;
  active?: boolean;
}

type Mapped = keyof ScimAttributes;

/** AttributeTransform::MAPPINGS, attribute names compared case-insensitively (RFC 7643 §2.1). */
const MAPPINGS: Record<string, Mapped> = {
  id: "extern_uid",
  externalid: "extern_uid",
  username: "username",
  displayname: "name",
  "name.formatted": "name",
  'emails[type eq "work"].value': "email",
  active: "active",
};

/**
 * ValueParser: strings lose their double quotes and "true"/"false" (any case, as Azure sends
 * "False") become booleans. Values that are neither strings nor booleans map to nothing.
 */
export function castValue(value: unknown): string | boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return undefined;
  const unquoted = value.replace(/"/g, "");
  const lower = unquoted.toLowerCase();
  return lower === "true" ? true : lower === "false" ? false : unquoted;
}

function assign(out: ScimAttributes, key: Mapped, value: unknown) {
  const v = castValue(value);
  if (v === undefined) return;
  if (key === "active") {
    if (typeof v === "boolean") out.active = v;
  } else if (typeof v === "string") out[key] = v;
}

/** Ruby truthiness, as GitLab's `email[:primary]` test. */
const truthy = (v: unknown) => v !== undefined && v !== null && v !== false;

type UserBody = Partial<z.output<typeof ScimCreateParams>>;

/**
 * ParamsParser#post_params: every mapped attribute, then the email (the first of `emails` of type
 * work or marked primary) and the name (`name.formatted`, else givenName and familyName) over them.
 * `externalId` wins over `id` when both are given.
 */
export function postAttributes(body: UserBody): ScimAttributes {
  const out: ScimAttributes = {};
  if (body.id != null) assign(out, "extern_uid", body.id);
  if (body.externalId != null) assign(out, "extern_uid", body.externalId);
  if (body.userName != null) assign(out, "username", body.userName);
  if (body.displayName != null) assign(out, "name", body.displayName);
  if (body.active != null) assign(out, "active", body.active);
  const email = body.emails?.find((e) => e.type === "work" || truthy(e.primary));
  if (email?.value != null) out.email = email.value;
  if (body.name) {
    const formatted = body.name.formatted?.trim() ? body.name.formatted : undefined;
    out.name = formatted ?? [body.name.givenName, body.name.familyName].filter((p) => p != null).join(" ");
  }
  return out;
}

export interface PatchOperation {
  op: string;
  path?: string | null;
  value?: unknown;
}

/**
 * ParamsParser#update_params: the `add` and `replace` operations (any case), others ignored. An
 * operation names its attribute in `path` (Azure) or as the keys of its `value` object (Okta); of
 * the latter every mapped key counts (GitLab reads only the first), `name.formatted` nested too.
 */
export function patchAttributes(operations: readonly PatchOperation[] | null | undefined): ScimAttributes {
  const out: ScimAttributes = {};
  for (const op of operations ?? []) {
    if (!["add", "replace"].includes(op.op.toLowerCase())) continue;
    if (op.path) {
      const key = MAPPINGS[op.path.toLowerCase()];
      if (key) assign(out, key, op.value);
      continue;
    }
    if (typeof op.value !== "object" || op.value === null || Array.isArray(op.value)) continue;
    for (const [attr, value] of Object.entries(op.value as Record<string, unknown>)) {
      if (attr.toLowerCase() === "name" && typeof value === "object" && value !== null) {
        const formatted = (value as Record<string, unknown>).formatted;
        if (formatted !== undefined) assign(out, "name", formatted);
        continue;
      }
      const key = MAPPINGS[attr.toLowerCase()];
      if (key) assign(out, key, value);
    }
  }
  return out;
}

/** Kaminari's default_per_page and max_per_page, which GitLab's SCIM pagination uses. */
export const SCIM_DEFAULT_COUNT = 20;
export const SCIM_MAX_COUNT = 100;

/** Ruby's String#to_i: leading digits (with a sign), else 0. */
const toI = (v: unknown): number => {
  if (typeof v === "number") return Number.isFinite(v) ? Math.trunc(v) : 0;
  if (typeof v !== "string") return 0;
  const m = /^\s*([+-]?\d+)/.exec(v);
  return m ? Number(m[1]) : 0;
};

/**
 * ScimPagination: `startIndex` is 1-based (below 1 counts as 1), `count` defaults to 20 and is
 * at most 100 (0, negative or junk count as the default). Never an error, as in GitLab; a
 * startIndex beyond any row count is clamped to what an offset column type takes.
 */
export function scimPagination(p: { startIndex?: unknown; count?: unknown }): { startIndex: number; count: number; offset: number } {
  const startIndex = Math.min(Math.max(toI(p.startIndex), 1), MAX_INT);
  const requested = toI(p.count);
  const count = requested <= 0 ? SCIM_DEFAULT_COUNT : Math.min(requested, SCIM_MAX_COUNT);
  return { startIndex, count, offset: startIndex - 1 };
}
