import { actionContract, cursorPageOf, fileOf, pageOf, replyOf, type RouteDef } from "@collab/core";
import { z } from "zod";
import { answersByStatus, buildOpenApi, pathParamsOf, wireSchema } from "./openapi";
import { mountedRoutes, mountedWebRoutes } from "./routes";
import { contractActions } from "./contracts";

// The validator is an ES module: loaded through the VM modules jest runs with.
const loadValidator = () => new Function("s", "return import(s)")("@seriousme/openapi-schema-validator") as Promise<typeof import("@seriousme/openapi-schema-validator")>;

async function validate(doc: object) {
  const { Validator } = await loadValidator();
  const validator = new Validator();
  const result = await validator.validate(doc as never);
  return { ...result, version: validator.version };
}

const openApiPath = (p: string) => p.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

describe("OpenAPI document from the route table", () => {
  const actions = contractActions();
  const doc = buildOpenApi({ routes: mountedRoutes, webRoutes: mountedWebRoutes, actions, version: "test" });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(result.version).toBe("3.1");
  });

  it("has every mounted route, with its path params required", () => {
    const all = [...mountedRoutes.map((r) => ({ r, full: `/api/v4${r.path}` })), ...mountedWebRoutes.map((r) => ({ r, full: r.path }))];
    for (const { r, full } of all) {
      const op = doc.paths[openApiPath(full)]?.[r.method.toLowerCase()];
      expect({ route: `${r.method} ${full}`, found: Boolean(op) }).toEqual({ route: `${r.method} ${full}`, found: true });
      const inPath = (op.parameters ?? []).filter((p: { in: string }) => p.in === "path");
      expect(inPath.map((p: { name: string }) => p.name)).toEqual(pathParamsOf(r.path));
      for (const p of inPath) expect(p.required).toBe(true);
    }
    const ops = Object.values(doc.paths).reduce((n: number, item) => n + Object.keys(item as object).length, 0);
    expect(ops).toBe(all.length);
  });

  it("describes inputs, statuses, security and pagination as the schemas and the table say", () => {
    const create = doc.paths["/api/v4/projects/{id}/issues"].post;
    expect(create.responses["201"]).toBeDefined();
    expect(create.requestBody.content["application/json"].schema.properties.title).toBeDefined();
    expect(create.requestBody.content["application/json"].schema.required).toContain("title");
    const list = doc.paths["/api/v4/projects/{id}/issues"].get;
    expect(list.responses["200"].headers["X-Total"]).toBeDefined();
    expect(list.responses["200"].headers.Link).toBeDefined();
    const state = list.parameters.find((p: { name: string }) => p.name === "state");
    expect(state.in).toBe("query");
    expect(state.schema.enum ?? state.schema.anyOf).toBeDefined();
    expect(list.security).toEqual(expect.arrayContaining([{ privateToken: [] }, { bearer: [] }]));
    const del = Object.entries(doc.paths).flatMap(([, item]: [string, any]) => (item.delete ? [item.delete] : []));
    expect(del.some((op: any) => op.responses["204"] && !op.responses["204"].content)).toBe(true);
    const deploy = mountedRoutes.find((r) => r.deployTokenScopes?.length);
    if (deploy) expect(doc.paths[openApiPath(`/api/v4${deploy.path}`)][deploy.method.toLowerCase()].security).toEqual(expect.arrayContaining([{ deployToken: [] }, { basic: [] }]));
    const files = mountedRoutes.find((r) => r.files?.length);
    if (files) expect(doc.paths[openApiPath(`/api/v4${files.path}`)][files.method.toLowerCase()].requestBody.content["multipart/form-data"]).toBeDefined();
    expect(doc.components.securitySchemes.privateToken).toEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "PRIVATE-TOKEN" }));
  });

  it("types timestamps as date-time strings and names each answer's entity", () => {
    const list = doc.paths["/api/v4/projects/{id}/issues"].get;
    const createdAfter = list.parameters.find((p: { name: string }) => p.name === "created_after");
    expect(createdAfter.schema).toEqual(expect.objectContaining({ type: "string", format: "date-time" }));
    expect(list.responses["200"].description).toBe("A page of Issue records");
    expect(doc.paths["/api/v4/projects/{id}/issues"].post.responses["201"].description).toBe("The Issue");
    expect(doc.paths["/api/v4/groups/{id}/members/{user_id}"].get.responses["200"].description).toBe("The Member");
  });

  it("gives every answer with a body a schema from its action's contract", () => {
    const all = [...mountedRoutes.map((r) => ({ r, full: `/api/v4${r.path}` })), ...mountedWebRoutes.map((r) => ({ r, full: r.path }))];
    const bare: string[] = [];
    for (const { r, full } of all) {
      const op = doc.paths[openApiPath(full)][r.method.toLowerCase()];
      const [status, success] = Object.entries(op.responses).find(([code]) => code.startsWith("2")) as [string, { content?: Record<string, { schema: object }> }];
      if (status === "204") continue;
      const schemas = Object.values(success.content ?? {}).map((c) => c.schema);
      if (schemas.length === 0 || schemas.some((s) => Object.keys(s).length === 0)) bare.push(`${r.method} ${full} (${r.action})`);
    }
    expect(bare).toEqual([]);
  });

  it("documents what the gateway sends: a page's items, a reply's body, a download's bytes", () => {
    const item = z.object({ id: z.number().int() });
    const wire = (schema: z.ZodType) => wireSchema(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>);
    expect(wire(pageOf(item))).toEqual(expect.objectContaining({ type: "array", items: expect.objectContaining({ required: ["id"] }) }));
    expect(wire(cursorPageOf(item))).toEqual(expect.objectContaining({ type: "array" }));
    expect(wire(replyOf(item))).toEqual(expect.objectContaining({ type: "object", required: ["id"] }));
    expect(wire(z.union([item, replyOf(z.object({ message: z.string() }))])).anyOf[1]).toEqual(expect.objectContaining({ required: ["message"] }));
    expect(wire(fileOf())).toEqual(expect.objectContaining({ type: "string", contentMediaType: "application/octet-stream" }));
    const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
    const byStatus = answersByStatus(json(z.union([item, replyOf(z.object({ message: z.string() }), 202)])), 204);
    expect([...byStatus.keys()]).toEqual([204, 202]);
    expect(byStatus.get(202)).toEqual([expect.objectContaining({ required: ["message"] })]);
  });

  it("shows a route added to the table without other edits", async () => {
    const extra: RouteDef = { method: "PUT", path: "/widgets/:widget_id/parts/:part", action: "widgets.parts.update", status: 202 };
    const widgets = actionContract("widgets.parts.update", {
      input: () => z.object({ widget_id: z.coerce.number().int(), part: z.string(), colour: z.enum(["red", "blue"]).default("red"), size: z.preprocess((v) => Number(v), z.number().int().min(1)) }),
      output: () => z.object({ id: z.number().int(), colour: z.string() }),
    });
    const more = buildOpenApi({ routes: [...mountedRoutes, extra], webRoutes: mountedWebRoutes, actions: new Map([...actions, [widgets.name, widgets]]), version: "test" });
    const op = more.paths["/api/v4/widgets/{widget_id}/parts/{part}"].put;
    expect(op.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required])).toEqual([
      ["widget_id", "path", true],
      ["part", "path", true],
    ]);
    const body = op.requestBody.content["application/json"].schema;
    expect(body.properties.colour).toEqual(expect.objectContaining({ enum: ["red", "blue"], default: "red" }));
    expect(body.properties.size).toEqual(expect.objectContaining({ type: "integer", minimum: 1 }));
    expect(body.required).toEqual(["size"]);
    expect(op.responses["202"].content["application/json"].schema).toEqual(expect.objectContaining({ type: "object", required: ["id", "colour"] }));
    expect((await validate(more)).valid).toBe(true);
  });
});
