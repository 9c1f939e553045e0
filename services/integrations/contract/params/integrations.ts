import { gEnum, gString } from "@collab/core";
import { z } from "zod";

/** The path of every integrations route: the project or group, and (for one integration) its slug. */
export const LevelRef = z.object({ id: gString() });

/** `slug` as Grape declares it (`values: INTEGRATIONS.keys`): anything else does not have a valid value. */
export const SlugRef = (slugs: readonly string[]) => LevelRef.extend({ slug: gEnum(slugs as [string, ...string[]]) }).loose();
