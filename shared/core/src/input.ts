import type { Context, Middleware } from "moleculer";
import type { z } from "zod";
import { paramError } from "./errors";
import { formatIssues, isOutOfRangeIssue } from "./params";

declare module "moleculer" {
  interface ActionSchema {
    /**
     * Request schema as a thunk: a zod instance would be broken by moleculer's cloneDeep of
     * action definitions, a function survives it and stays out of INFO packets.
     */
    input?: () => z.ZodType;
  }
}

/**
 * Validates `ctx.params` with the action's zod schema and replaces them with the parsed output,
 * so handlers see coerced numbers, booleans and defaults. Failures become Grape-style 400s.
 */
export const ZodInputMiddleware: Middleware = {
  name: "ZodInput",
  localAction(next: (ctx: Context) => Promise<unknown>, action: { input?: () => z.ZodType }) {
    if (typeof action.input !== "function") return next;
    const schema = action.input();
    return function validateInput(ctx: Context) {
      const raw = ctx.params ?? {};
      const result = schema.safeParse(raw);
      if (!result.success) {
        const outOfRange = result.error.issues.filter(isOutOfRangeIssue).map((i) => String(i.path[0]));
        return Promise.reject(paramError(formatIssues(result.error.issues, raw), outOfRange));
      }
      ctx.params = result.data as typeof ctx.params;
      return next(ctx);
    };
  },
};
