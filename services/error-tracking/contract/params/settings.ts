import { gBool, gString } from "@collab/core";
import { z } from "zod";

export const GetSettingParams = z.object({ id: gString() });
/** PATCH: switch an existing setting on or off, optionally between integrated and external. */
export const PatchSettingParams = z.object({ id: gString(), active: gBool(), integrated: gBool().optional() });
/** PUT: configure (creating the setting when absent); both fields required. */
export const PutSettingParams = z.object({ id: gString(), active: gBool(), integrated: gBool() });
