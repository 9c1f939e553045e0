import { call, type Ctx } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";

/** The group as the caller may read it, with their level and role (404 otherwise). */
export const groupOf = (ctx: Ctx<unknown>, ref: string | number) => call(ctx, Namespaces.access.group, { group: ref });
