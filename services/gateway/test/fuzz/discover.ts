/**
 * Parameter discovery for the route-table fuzz test: which names a route takes, from its path
 * (`:id`, `:issue_iid`…) and from the zod input schema of its action's contract entry, with a
 * rough kind per name to build a valid baseline value.
 */
import type { RouteDef } from "@collab/core";
import { pathParamsOf, type DocumentedAction } from "../../src/openapi";

export type ParamKind = "string" | "int" | "bool" | "date" | "datetime" | "array" | "object" | "enum" | "unknown";

export interface ParamInfo {
  name: string;
  kind: ParamKind;
  required: boolean;
  /** Enum options or literal values, when the schema lists them. */
  options?: readonly unknown[];
}

export interface RouteParams {
  route: RouteDef;
  /** `:name` segments of the path, in order. */
  pathParams: string[];
  /** Keys of the action's input schema minus the path params and the route's fixed params. */
  inputParams: ParamInfo[];
  /** True when the schema could not be read and common names were used instead. */
  fallback: boolean;
  /** A route outside /api/v4 (mountedWebRoutes), its path from the server root. */
  web: boolean;
}

/** Names tried when a route's action has no readable schema. */
export const COMMON_NAMES = ["id", "page", "per_page", "search", "name", "title", "description", "sort", "order_by"];

export { actionInputs, pathParamsOf };

type Def = { type: string; [k: string]: any };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** Wrappers whose `innerType` is what the walkers below look through. */
const WRAPPERS = new Set(["optional", "nonoptional", "nullable", "default", "prefault", "catch", "readonly"]);

/** The object shapes behind wrappers (pipe, union, optional, default, lazy, intersection…). */
function shapesOf(schema: unknown, depth = 0): Record<string, unknown>[] {
  const def = defOf(schema);
  if (!def || depth > 20) return [];
  if (WRAPPERS.has(def.type)) return shapesOf(def.innerType, depth + 1);
  switch (def.type) {
    case "object":
      return [def.shape as Record<string, unknown>];
    case "pipe":
      return [...shapesOf(def.in, depth + 1), ...shapesOf(def.out, depth + 1)];
    case "union":
      return (def.options as unknown[]).flatMap((o) => shapesOf(o, depth + 1));
    case "intersection":
      return [...shapesOf(def.left, depth + 1), ...shapesOf(def.right, depth + 1)];
    case "lazy":
      return shapesOf(def.getter(), depth + 1);
    case "success":
      return shapesOf(def.innerType, depth + 1);
    default:
      return [];
  }
}

/** Whether the key may be absent: optional/default anywhere on the way in. */
function isOptional(schema: unknown, depth = 0): boolean {
  const def = defOf(schema);
  if (!def || depth > 20) return false;
  if (def.type === "optional" || def.type === "default" || def.type === "prefault" || def.type === "catch") return true;
  if (def.type === "nullable" || def.type === "readonly") return isOptional(def.innerType, depth + 1);
  // z.preprocess(fn, inner) is pipe(transform, inner): optional when inner is.
  if (def.type === "pipe") return defOf(def.in)?.type === "transform" ? isOptional(def.out, depth + 1) : isOptional(def.in, depth + 1);
  return false;
}

/** A rough kind, for a valid baseline value. */
function kindOf(schema: unknown, depth = 0): { kind: ParamKind; options?: readonly unknown[] } {
  const def = defOf(schema);
  if (!def || depth > 20) return { kind: "unknown" };
  if (WRAPPERS.has(def.type)) return kindOf(def.innerType, depth + 1);
  switch (def.type) {
    case "string":
      return { kind: "string" };
    case "number":
    case "int":
    case "bigint":
      return { kind: "int" };
    case "boolean":
      return { kind: "bool" };
    case "date":
      return { kind: "datetime" };
    case "array":
    case "tuple":
    case "set":
      return { kind: "array" };
    case "object":
    case "record":
    case "map":
      return { kind: "object" };
    case "enum":
      return { kind: "enum", options: Object.values(def.entries as Record<string, unknown>) };
    case "literal":
      return { kind: "enum", options: def.values as unknown[] };
    case "pipe": {
      // preprocess(fn, inner) is pipe(transform, inner); x.transform(fn) is pipe(x, transform).
      const inn = defOf(def.in)?.type === "transform" ? kindOf(def.out, depth + 1) : kindOf(def.in, depth + 1);
      return inn;
    }
    case "union": {
      const kinds = (def.options as unknown[]).map((o) => kindOf(o, depth + 1));
      return kinds.find((k) => k.kind !== "enum" && k.kind !== "unknown") ?? kinds[0] ?? { kind: "unknown" };
    }

    case "lazy":
      return kindOf(def.getter(), depth + 1);
    default:
      return { kind: "unknown" };
  }
}

/** Input params of a zod schema (every key of every shape behind its wrappers), or null if unreadable. */
export function inputParamsOf(schema: unknown): ParamInfo[] | null {
  const shapes = shapesOf(schema);
  if (shapes.length === 0) return null;
  const seen = new Map<string, ParamInfo>();
  for (const shape of shapes) {
    for (const [name, s] of Object.entries(shape)) {
      if (seen.has(name)) continue;
      let k = kindOf(s);
      // gDate() is a refined gString(); a name says more than the type here.
      if (k.kind === "string" && /(_date|_on|^expires_at|^due_date|^start_date|_before$|_after$)$/.test(name)) k = { kind: "date" };
      seen.set(name, { name, kind: k.kind, required: !isOptional(s), options: k.options });
    }
  }
  return [...seen.values()];
}

/** Path params and input params of every route. */
export function discoverRoutes(routes: RouteDef[], actions: ReadonlyMap<string, DocumentedAction>, opts: { web?: boolean } = {}): RouteParams[] {
  return routes.map((route) => {
    const pathParams = pathParamsOf(route.path);
    const thunk = actions.get(route.action)?.input;
    let params: ParamInfo[] | null = null;
    if (thunk) {
      try {
        params = inputParamsOf(thunk());
      } catch {
        params = null;
      }
    }
    const fixed = new Set(Object.keys(route.params ?? {}));
    const fallback = params === null;
    const list = (params ?? COMMON_NAMES.map((name) => ({ name, kind: "unknown" as ParamKind, required: false })))
      .filter((p) => !pathParams.includes(p.name) && !fixed.has(p.name));
    return { route, pathParams, inputParams: list, fallback, web: opts.web === true };
  });
}
