import type { ActionSchema } from "moleculer";
import type { z } from "zod";
import type { Ctx } from "./meta";

/**
 * Declares an action whose handler sees the parsed, typed params of its zod schema.
 * Validation itself runs in ZodInputMiddleware, before the handler.
 */
export function action<S extends z.ZodType, R>(def: {
  input: () => S;
  visibility?: ActionSchema["visibility"];
  /** Safe to repeat (reads): callers retry it on another replica when one dies mid-request. */
  idempotent?: boolean;
  handler: (ctx: Ctx<z.output<S>>) => Promise<R> | R;
}): ActionSchema;
export function action<R>(def: {
  visibility?: ActionSchema["visibility"];
  idempotent?: boolean;
  handler: (ctx: Ctx<Record<string, unknown>>) => Promise<R> | R;
}): ActionSchema;
export function action(def: {
  input?: () => z.ZodType;
  visibility?: ActionSchema["visibility"];
  idempotent?: boolean;
  handler: (ctx: Ctx<never>) => unknown;
}): ActionSchema {
  return {
    input: def.input,
    visibility: def.visibility,
    ...(def.idempotent ? { retryPolicy: { enabled: true } } : {}),
    handler: def.handler as ActionSchema["handler"],
  };
}
