/**
 * The OpenAPI 3.1 document of the API, generated from the route table the gateway mounts and the
 * zod input schema of each route's action (zod 4's own `z.toJSONSchema`, input side). Built once at
 * gateway start: a route added to the table appears here without other edits.
 */
import { defaultStatus, type RouteDef } from "@collab/core";
import { z } from "zod";

type Json = Record<string, any>;

export const pathParamsOf = (path: string) => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);

/** What documents an action: its contract entry's input and output schemas (thunks). */
export interface DocumentedAction {
  input?: () => unknown;
  output?: () => unknown;
}

/** The entity an action answers, named from its resource: `issues.issues.create` → "Issue", `admin.settings.get` → "Setting". */
export function entityOf(action: string): string {
  const resource = action.split(".").slice(-2, -1)[0] ?? action;
  return resource
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/ies$/, "y")
    .replace(/s$/, "")
    .replace(/^./, (c) => c.toUpperCase());
}

/** The input-side JSON Schema of an action's zod schema; `{}` when it has none or it cannot be represented. */
export function inputJsonSchema(thunk: (() => unknown) | undefined, io: "input" | "output" = "input"): Json {
  if (!thunk) return {};
  try {
    const { $schema: _drop, ...json } = z.toJSONSchema(thunk() as z.ZodType, {
      io,
      unrepresentable: "any",
      cycles: "throw",
      reused: "inline",
      // gDateTime parses an ISO 8601 string into a Date: on the wire it is a date-time string.
      override: (ctx) => {
        if ((ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def.type === "date") Object.assign(ctx.jsonSchema, { type: "string", format: "date-time" });
      },
    }) as Json;
    return json;
  } catch {
    return {};
  }
}

/**
 * An action's answer as the gateway sends it (sendResponse): a page or a keyset page is its items,
 * a Reply its body; unions are mapped branch by branch.
 */
export function wireSchema(schema: Json): Json {
  if (!schema || typeof schema !== "object") return schema;
  const props = schema.properties as Record<string, Json> | undefined;
  if (props?.$page || props?.$cursorPage) return props.items ?? { type: "array" };
  if (props?.$reply) return props.body ?? {};
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(schema[key])) return { ...schema, [key]: schema[key].map(wireSchema) };
  }
  return schema;
}

/**
 * An action's answers (its output's JSON Schema) as the gateway sends them, by HTTP status: each
 * branch of a union that is a Reply with a fixed status answers that status, the rest `fallback`.
 */
export function answersByStatus(output: Json, fallback: number): Map<number, Json[]> {
  const out = new Map<number, Json[]>();
  const branches: Json[] = Array.isArray(output.anyOf) && output.anyOf.some((b: Json) => b?.properties?.$reply) ? output.anyOf : [output];
  for (const branch of branches) {
    const fixed = branch?.properties?.$reply ? branch.properties.status?.const : undefined;
    const status = typeof fixed === "number" ? fixed : fallback;
    out.set(status, [...(out.get(status) ?? []), wireSchema(branch)]);
  }
  return out;
}

/** Properties and required names of an object schema, through allOf / anyOf / oneOf branches. */
function propertiesOf(schema: Json, depth = 0): { props: Record<string, Json>; required: Set<string> } {
  const props: Record<string, Json> = {};
  const required = new Set<string>();
  if (!schema || typeof schema !== "object" || depth > 10) return { props, required };
  Object.assign(props, schema.properties ?? {});
  for (const r of schema.required ?? []) required.add(r);
  for (const sub of schema.allOf ?? []) {
    const inner = propertiesOf(sub, depth + 1);
    for (const [k, v] of Object.entries(inner.props)) props[k] ??= v;
    for (const r of inner.required) required.add(r);
  }
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map((s: Json) => propertiesOf(s, depth + 1));
  for (const alt of alternatives) for (const [k, v] of Object.entries(alt.props)) props[k] ??= v;
  // A name is required through a union only when every branch requires it.
  for (const name of alternatives[0]?.required ?? []) if (alternatives.every((a) => a.required.has(name))) required.add(name);
  return { props, required };
}

const PAGINATION_HEADERS: Record<string, Json> = {
  "X-Total": { description: "Total number of items", schema: { type: "integer" } },
  "X-Total-Pages": { description: "Total number of pages", schema: { type: "integer" } },
  "X-Page": { description: "Current page", schema: { type: "integer" } },
  "X-Per-Page": { description: "Items per page", schema: { type: "integer" } },
  "X-Next-Page": { description: "Next page (empty on the last)", schema: { type: "string" } },
  "X-Prev-Page": { description: "Previous page (empty on the first)", schema: { type: "string" } },
  Link: { description: "RFC 8288 links: first, prev, next, last", schema: { type: "string" } },
};

const errorResponse = (description: string, schema: Json = { $ref: "#/components/schemas/Message" }) => ({
  description,
  content: { "application/json": { schema } },
});

const COMPONENTS: Json = {
  securitySchemes: {
    privateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN", description: "Personal, project, group or service account access token" },
    bearer: { type: "http", scheme: "bearer", description: "An access token (or OAuth token) as `Authorization: Bearer`" },
    deployToken: { type: "apiKey", in: "header", name: "Deploy-Token", description: "Deploy token (routes that list deploy token scopes)" },
    basic: { type: "http", scheme: "basic", description: "Deploy token username and secret (routes that list deploy token scopes)" },
  },
  schemas: {
    Message: { type: "object", properties: { message: {} }, required: ["message"], description: "GitLab error body: `message` is a string or an object of field errors" },
    Error: { type: "object", properties: { error: { type: "string" } }, required: ["error"], description: "GitLab error body for missing or invalid params" },
  },
  responses: {
    BadRequest: errorResponse("Missing or invalid parameters", { anyOf: [{ $ref: "#/components/schemas/Error" }, { $ref: "#/components/schemas/Message" }] }),
    Unauthorized: errorResponse("401 Unauthorized: no or invalid credentials"),
    Forbidden: errorResponse("403 Forbidden"),
    NotFound: errorResponse("404 Not Found", { anyOf: [{ $ref: "#/components/schemas/Message" }, { $ref: "#/components/schemas/Error" }] }),
    UnsupportedMediaType: errorResponse("415 Unsupported Media Type"),
    TooManyRequests: { description: "429 Too Many Requests (rate limited)", content: { "text/plain": { schema: { type: "string" } } } },
  },
};

const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

function securityOf(route: RouteDef): Json[] {
  if (route.auth === "scim") return [{ bearer: [] }];
  const tokens: Json[] = [{ privateToken: [] }, { bearer: [] }];
  if (route.deployTokenScopes?.length) tokens.push({ deployToken: [] }, { basic: [] });
  return route.auth === "optional" ? [{}, ...tokens] : tokens;
}

function operationOf(route: RouteDef, input: Json, output: Json, operationId: string): Json {
  const pathParams = pathParamsOf(route.path);
  const fixed = new Set(Object.keys(route.params ?? {}));
  const { props, required } = propertiesOf(input);
  const parameters: Json[] = pathParams.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: props[name] ?? { type: "string" },
  }));
  const rest = Object.entries(props).filter(([name]) => !pathParams.includes(name) && !fixed.has(name));
  const mediaType = route.contentType ?? "application/json";
  const op: Json = {
    operationId,
    tags: [route.action.split(".").slice(0, -1).join(".") || route.action],
    summary: route.action,
    description: `Action \`${route.action}\`${route.scopes?.length ? `; token scopes besides \`api\`: ${route.scopes.join(", ")}` : ""}${route.deployTokenScopes?.length ? `; deploy token scopes: ${route.deployTokenScopes.join(", ")}` : ""}.`,
    security: securityOf(route),
  };
  if (route.method === "GET" || route.method === "DELETE") {
    for (const [name, schema] of rest) parameters.push({ name, in: "query", required: required.has(name), schema });
  } else if (rest.length > 0 || route.files?.length) {
    const properties = Object.fromEntries(rest);
    const req = rest.map(([n]) => n).filter((n) => required.has(n));
    const body: Json = { type: "object", properties };
    if (req.length) body.required = req;
    const content: Json = { "application/json": { schema: body } };
    if (route.files?.length) {
      const files = Object.fromEntries(route.files.map((f) => [f, { type: "string", contentMediaType: "application/octet-stream" }]));
      const formBody = { ...body, properties: { ...properties, ...files } };
      content["multipart/form-data"] = { schema: formBody };
      content["application/x-www-form-urlencoded"] = { schema: body };
    }
    op.requestBody = { required: req.length > 0, content };
  }
  if (parameters.length) op.parameters = parameters;
  const list = route.method === "GET" && ("page" in props || "per_page" in props);
  const entity = entityOf(route.action);
  // The answers of the action's contract entry, as the gateway sends them, by status: a Reply of
  // a fixed status (replyOf(body, 202)) answers that one, anything else the route's default.
  const successes: Record<string, Json> = {};
  for (const [status, schemas] of answersByStatus(output, defaultStatus(route))) {
    const success: Json = { description: status === 204 ? "No content" : list ? `A page of ${entity} records` : `The ${entity}` };
    const schema = schemas.length === 1 ? schemas[0] : { anyOf: schemas };
    // A download (fileOf) is bytes of its own media type, whatever the route's.
    const answerType = typeof schema.contentMediaType === "string" ? schema.contentMediaType : mediaType;
    if (status !== 204) success.content = { [answerType]: { schema } };
    if (list) success.headers = PAGINATION_HEADERS;
    successes[String(status)] = success;
  }
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  op.responses = {
    ...successes,
    "400": ref("BadRequest"),
    ...(route.auth === "optional" ? {} : { "401": ref("Unauthorized") }),
    "403": ref("Forbidden"),
    "404": ref("NotFound"),
    ...(route.method === "POST" || route.method === "PUT" || route.method === "PATCH" ? { "415": ref("UnsupportedMediaType") } : {}),
    "429": ref("TooManyRequests"),
  };
  return op;
}

export interface OpenApiSources {
  /** Routes under /api/v4 (paths relative to it). */
  routes: RouteDef[];
  /** Routes outside /api/v4, paths from the server root. */
  webRoutes?: RouteDef[];
  /** Action name → its contract entry (input and output schemas). */
  actions: ReadonlyMap<string, DocumentedAction>;
  version: string;
}

/** The OpenAPI 3.1 document for a route table. */
export function buildOpenApi({ routes, webRoutes = [], actions, version }: OpenApiSources): Json {
  const paths: Record<string, Json> = {};
  const usedIds = new Map<string, number>();
  const add = (route: RouteDef, fullPath: string) => {
    const key = openApiPath(fullPath);
    const base = route.action.replace(/[^A-Za-z0-9]+/g, "_");
    const n = (usedIds.get(base) ?? 0) + 1;
    usedIds.set(base, n);
    const operationId = n === 1 ? base : `${base}_${n}`;
    (paths[key] ??= {})[route.method.toLowerCase()] = operationOf(route, inputJsonSchema(actions.get(route.action)?.input), inputJsonSchema(actions.get(route.action)?.output, "output"), operationId);
  };
  for (const route of routes) add(route, `/api/v4${route.path}`);
  for (const route of webRoutes) add(route, route.path);
  return {
    openapi: "3.1.0",
    info: {
      title: "Collab API",
      version,
      description: "GitLab-v4-compatible REST API. Generated from the gateway's route table and each action's input schema.",
    },
    servers: [{ url: "/" }],
    security: [{ privateToken: [] }, { bearer: [] }],
    paths,
    components: COMPONENTS,
  };
}
