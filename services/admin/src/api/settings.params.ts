import { gBool, gArray } from "@collab/core";
import { z } from "zod";
import { ALIASES, SETTING_FIELDS } from "./settings.fields";

const shape: Record<string, z.ZodType> = {};
for (const f of SETTING_FIELDS) shape[f.name] = f.input().optional();
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
