import { formatIssues, gBool, gEnum, gInt, gString, gStringArray, paramError } from "@collab/core";
import { flagsOf, type FieldDef, type KindDef } from "@collab/integrations-contract";
import { z } from "zod";

function fieldSchema(f: FieldDef): z.ZodType {
  if (f.type === "boolean") return gBool();
  if (f.type === "integer") return gInt();
  if (f.type === "list") return gStringArray();
  if (typeof f.type === "object") return gEnum(f.type.enum);
  return gString();
}

/** The set-up call's own parameters for a kind: its fields (required as marked), event booleans, use_inherited_settings. */
export function setupSchema(kind: KindDef) {
  const shape: Record<string, z.ZodType> = { use_inherited_settings: gBool().optional() };
  for (const f of kind.fields) shape[f.name] = f.required ? fieldSchema(f) : fieldSchema(f).optional();
  for (const e of flagsOf(kind)) shape[e] = gBool().optional();
  return z.object(shape);
}

export type SetupParams = Record<string, string | boolean | number | string[] | undefined> & { use_inherited_settings?: boolean };

/** Parses a set-up call for a kind; a missing or malformed parameter is Grape's 400 {"error": "webhook is missing"}. */
export function parseSetup(kind: KindDef, params: unknown): SetupParams {
  const parsed = setupSchema(kind).safeParse(params);
  if (!parsed.success) throw paramError(formatIssues(parsed.error.issues, params));
  return parsed.data as SetupParams;
}
