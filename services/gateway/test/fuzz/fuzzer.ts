/**
 * The route-table fuzzer: for one route and one of its parameters, fast-check generates hostile
 * values (hostile.ts) and sends them as anonymous, outsider or member (root too on reads), every
 * other parameter valid (path ids from the fixture world, required body params from `baseline`).
 * Each answer is checked: no 5xx (nor a hang), a GitLab-shaped body on every 4xx, and no row
 * changed by a refused write (fingerprint.ts). Failures are collected, not thrown, so one sweep
 * reports them all.
 */
import type { RouteDef } from "@collab/core";
import type { TestApp } from "@collab/testing";
import fc from "fast-check";
import fs from "node:fs";
import type { ParamInfo, RouteParams } from "./discover";
import { changedTables, Fingerprinter, serviceTables, settle, writeMark, type Fingerprint } from "./fingerprint";
import { BODY_EXAMPLES, GROUP_NAMES, HOSTILE_GROUPS, PRIORITY_GROUPS, hostilePathSegment, hostileValue, oddBody, PATH_EXAMPLES, qsEncode, type Hostile, type OddBody } from "./hostile";
import { send, type RawRequest, type RawResponse } from "./send";
import { brokenChecks, buildWorld, pathValue, repairWorld, worldChecks, type Space, type World } from "./world";

/**
 * fast-check's base seed: FUZZ_SEED to sweep other values (the default keeps every pass
 * repeatable). The distributed pass adds one: it tries other values than the in-process pass.
 */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261124) + (process.env.TEST_GATEWAY_URL ? 1 : 0);

export type PrincipalName = "anonymous" | "outsider" | "member" | "root";

/** One parameter of a route to fuzz: a path segment, an input param, or the body as a whole. */
export type Target = { where: "path"; name: string } | { where: "input"; name: string; info: ParamInfo } | { where: "body"; name: string };

type Mutation =
  | { kind: "path"; cls: string; seg: string }
  | { kind: "value"; location: "query" | "json" | "form"; hostile: Hostile }
  | { kind: "odd-body"; odd: OddBody };

interface Case {
  principal: PrincipalName;
  space: "pub" | "priv";
  head: boolean;
  mutation: Mutation;
}

export interface Failure {
  route: string;
  principal: PrincipalName;
  param: string;
  location: string;
  cls: string;
  value: string;
  problem: string;
  status: number;
  body: string;
  request: string;
  /** The request's path and query (first 4,000 characters), to match the gateway's log lines. */
  url: string;
  replay: { seed: number; run: number };
}

export interface RouteStats {
  route: string;
  requests: number;
  ms: number;
  statuses: Record<string, number>;
  /** Statuses per principal, e.g. "member 201". */
  byPrincipal: Record<string, number>;
  /** Times the world was repaired or rebuilt because of this route's accepted writes. */
  rebuilds: number;
}

const WRITE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** FUZZ_TRACE=<file>: every request appended as a JSON line (route, param, class, principal, status), to study what a sweep reached. */
const TRACE = process.env.FUZZ_TRACE;
/**
 * Values no route may accept: PostgreSQL cannot store a NUL or a lone surrogate (the gateway
 * refuses them anywhere), and a query or form escape that decodes to no UTF-8 must not be stored
 * as its literal text. Raw-body routes take their body as bytes, so only their URL counts.
 */
const UNSTORABLE = new Set(["nul", "nul-in-array", "nul-in-object-key", "huge-nul", "surrogate", "unicode-lone-surrogate", "path-nul"]);
function mustRefuse(route: RouteDef, cls: string, location: string): boolean {
  if ((route.rawBody || route.streamBody) && (location === "json" || location === "form")) return false;
  return UNSTORABLE.has(cls) || (cls === "invalid-utf8" && (location === "query" || location === "form"));
}

const hash = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};
const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** Names whose valid value is sent with every POST that takes them, so the hostile one is what fails. */
const CREATE_NAMES = new Set([
  "title", "name", "body", "message", "color", "cron", "ref", "key", "value", "email", "username", "password", "path", "branch", "tag_name",
  "deploy_access_levels", "runner_type", "user_id", "access_level", "to_project_id", "runner_id", "token", "user", "source_storage_name", "scopes",
]);
/** Names sent with every write that takes them outside its path (they pick the resource). */
const ALWAYS_NAMES = new Set(["label_id"]);

export class Fuzzer {
  world!: World;
  failures: Failure[] = [];
  /** Refused writes after which some table differed, accepted when sent again (so inconclusive). */
  unconfirmed: string[] = [];
  stats: RouteStats[] = [];
  private fingerprinter!: Fingerprinter;
  /** Tables in the fingerprint. */
  tables: string[] = [];
  /** Time spent outside requests: fingerprints, world checks and rebuilds (ms). */
  timing = { fingerprint: 0, fingerprints: 0, marks: 0, worldCheck: 0, rebuild: 0 };
  /** Fixtures made again in place (the world was not rebuilt). */
  repairs = 0;
  rebuilds = 0;
  /** The fingerprint of the current state, and the write mark read just before it. */
  private cachedFp: Fingerprint | null = null;
  private cachedMark = "";
  private counter = 0;
  private worldDirty = false;
  /** An accepted write happened during the current route. */
  routeWrote = false;

  constructor(readonly app: TestApp) {}

  async init() {
    await this.rebuild();
    const tables = await serviceTables(this.app.database);
    this.tables = tables.map((t) => t.table);
    this.fingerprinter = new Fingerprinter(this.app.database, tables);
  }

  async rebuild() {
    const t = Date.now();
    await this.app.reset();
    // In-process the test turns the worker off; the distributed topology's admin service runs it.
    this.world = await buildWorld(this.app, () => this.app.distributed);
    this.cachedFp = null;
    this.worldDirty = false;
    this.timing.rebuild += Date.now() - t;
    this.rebuilds++;
  }

  /** The fingerprint now (and the write mark read just before it), or once writes have settled. */
  private async fp(settled = false): Promise<{ fp: Fingerprint; mark: string }> {
    const t = Date.now();
    // Bus events land within milliseconds in one process, later across processes.
    const mark = settled ? await settle(this.app.database, { quietMs: this.app.distributed ? 50 : 10 }) : await writeMark(this.app.database);
    const fp = await this.fingerprinter.take();
    this.timing.fingerprint += Date.now() - t;
    this.timing.fingerprints++;
    return { fp, mark };
  }

  /** After a route: the world is checked when the route's writes were accepted. */
  async endRoute(route: RouteDef): Promise<boolean> {
    if (this.routeWrote) this.worldDirty = true;
    this.routeWrote = false;
    return this.ensureWorld(route);
  }

  /**
   * The fixtures a write on `route` may have broken: those under the route's last literal path
   * segment (`labels`, `branches`…) when some fixture lives there, else all of them.
   */
  private focusOf(route: RouteDef): ((path: string) => boolean) | undefined {
    const literal = route.path.split("/").filter((s) => s && !s.startsWith(":")).pop();
    if (!literal || ["projects", "groups", "users", "user"].includes(literal)) return undefined;
    const needle = `/${literal}/`;
    return worldChecks(this.world).some((c) => c.path.includes(needle)) ? (p) => p.includes(needle) : undefined;
  }

  /** Repairs (or else rebuilds) the world when an accepted write broke it; answers whether it did either. */
  async ensureWorld(route: RouteDef): Promise<boolean> {
    if (!this.worldDirty) return false;
    this.worldDirty = false;
    const t = Date.now();
    const broken = await brokenChecks(this.app, this.world, this.focusOf(route));
    const repaired = broken.length > 0 && (await repairWorld(this.app, this.world, broken));
    this.timing.worldCheck += Date.now() - t;
    if (!broken.length) return false;
    this.cachedFp = null;
    if (repaired) {
      this.repairs++;
      return true;
    }
    await this.rebuild();
    return true;
  }

  targetsOf(rp: RouteParams): Target[] {
    const t: Target[] = rp.pathParams.map((name) => ({ where: "path" as const, name }));
    for (const info of rp.inputParams) t.push({ where: "input", name: info.name, info });
    if (WRITE.has(rp.route.method)) t.push({ where: "body", name: "<body>" });
    return t;
  }

  private principals(route: RouteDef): PrincipalName[] {
    return route.method === "GET" ? ["anonymous", "outsider", "member", "root"] : ["anonymous", "outsider", "member"];
  }

  private mutationArb(route: RouteDef, target: Target, values: fc.Arbitrary<Hostile>): fc.Arbitrary<Mutation> {
    if (target.where === "path") return hostilePathSegment.map((m) => ({ kind: "path" as const, ...m }));
    if (target.where === "body") return oddBody.map((odd) => ({ kind: "odd-body" as const, odd }));
    const locations: ("query" | "json" | "form")[] = WRITE.has(route.method) ? ["json", "json", "form", "query"] : ["query"];
    return fc.record({ location: fc.constantFrom(...locations), hostile: values }).map(({ location, hostile }) => ({ kind: "value" as const, location, hostile }));
  }

  /**
   * Fuzzes one parameter of a route with about `runs` requests:
   * - a path parameter: the fixed PATH_EXAMPLES as the member, then `runs` generated segments;
   * - the body as a whole (writes): on routes taking params, the fixed BODY_EXAMPLES (null, [],
   *   [1], empty, {}) as the member, `{}` and `null` as root on PUT and PATCH; then `runs`
   *   generated odd bodies;
   * - an input parameter, with `runs` ≥ the number of value groups: for every group a run as the
   *   member (who gets furthest; two for PRIORITY_GROUPS when `runs` allows), the rest (at least
   *   two) as the other principals with values of any group;
   *   with fewer runs, `runs` values from all groups, the member weighted to half of them.
   * Each is a fast-check property of its own, seeded from SEED and its names.
   */
  async fuzz(rp: RouteParams, target: Target, runs: number, stats: RouteStats) {
    const route = rp.route;
    const all = this.principals(route);
    const others = all.filter((p) => p !== "member");
    const memberHalf = fc.oneof(...all.map((p) => ({ weight: p === "member" ? all.length - 1 : 1, arbitrary: fc.constant(p) })));
    const plan: { key: string; principal: fc.Arbitrary<PrincipalName>; values: fc.Arbitrary<Hostile>; numRuns: number; examples?: [Case][] }[] = [];
    if (target.where === "input" && runs >= GROUP_NAMES.length) {
      // Every group once as the member, twice for the groups that most often reach the database
      // when the budget allows; at least two runs for the other principals (any group).
      const twice = runs >= GROUP_NAMES.length + PRIORITY_GROUPS.length + 2;
      for (const g of GROUP_NAMES) {
        const numRuns = twice && PRIORITY_GROUPS.includes(g) ? 2 : 1;
        plan.push({ key: `${g} member`, principal: fc.constant("member"), values: HOSTILE_GROUPS[g] as fc.Arbitrary<Hostile>, numRuns });
      }
      const rest = Math.max(2, runs - GROUP_NAMES.length - (twice ? PRIORITY_GROUPS.length : 0));
      plan.push({ key: "others", principal: fc.constantFrom(...others), values: hostileValue, numRuns: rest });
    } else if (target.where === "path") {
      const examples = PATH_EXAMPLES.map((seg) => [{ principal: "member", space: "pub", head: false, mutation: { kind: "path", cls: "path-example", seg } }] as [Case]);
      plan.push({ key: "path", principal: memberHalf, values: hostileValue, numRuns: runs + examples.length, examples });
    } else if (target.where === "body") {
      const bodyCase = (principal: PrincipalName, odd: OddBody): [Case] => [{ principal, space: "pub", head: false, mutation: { kind: "odd-body", odd } }];
      // Only routes that take params in a body (a DELETE of a path alone would just be repeated).
      const examples = rp.inputParams.length ? BODY_EXAMPLES.map((odd) => bodyCase("member", odd)) : [];
      // An update with nothing to change reaches the write code only as someone allowed to write:
      // root sends `{}` and `null` too (not on POST or DELETE, where root would create or remove).
      if (examples.length && (route.method === "PUT" || route.method === "PATCH"))
        examples.push(...BODY_EXAMPLES.filter((b) => b.cls === "json-empty-object" || b.cls === "json-null").map((odd) => bodyCase("root", odd)));
      plan.push({ key: "any", principal: memberHalf, values: hostileValue, numRuns: runs + examples.length, examples });
    } else {
      plan.push({ key: "any", principal: memberHalf, values: hostileValue, numRuns: runs });
    }
    for (const step of plan) {
      const seed = (SEED ^ hash(`${route.method} ${route.path} ${target.name} ${step.key}`)) >>> 0;
      const arb: fc.Arbitrary<Case> = fc.record({
        principal: step.principal,
        space: fc.constantFrom<"pub" | "priv">("pub", "priv"),
        head: route.method === "GET" ? fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) : fc.constant(false),
        mutation: this.mutationArb(route, target, step.values),
      });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(arb, async (c) => {
          await this.one(rp, target, c, { seed, run: run++ }, stats);
          return true;
        }),
        { seed, numRuns: step.numRuns, examples: step.examples ?? [], endOnFailure: true },
      );
    }
  }

  private tokenOf(p: PrincipalName): string | null {
    if (p === "anonymous") return null;
    return this.world[p].token;
  }

  /** A valid value for a required (or create-time) input param. */
  private baselineValue(info: ParamInfo, route: RouteDef, space: Space, other: Space): unknown {
    const n = ++this.counter;
    switch (info.name) {
      case "title":
        return `fuzz ${n}`;
      case "name":
        return info.kind === "enum" && info.options?.length ? info.options[1] ?? info.options[0] : `fuzz-${n}`;
      case "path":
        return `fuzz-path-${n}`;
      case "body":
        return "fuzz body";
      case "message":
        return "fuzz message";
      case "description":
        return "fuzz";
      case "color":
        return "#123456";
      case "cron":
        return "0 1 * * *";
      case "ref":
        return "main";
      case "key":
        return `FUZZ_${n}`;
      case "value":
        return "v";
      case "email":
        return `fuzz${n}@example.com`;
      case "username":
        return `fuzz${n}`;
      case "password":
        return "s3cret-passw0rd-fuzz";
      case "branch":
        return `fuzz-branch-${n}`;
      case "tag_name":
        return `fuzz-tag-${n}`;
      case "deploy_access_levels":
        return [{ access_level: 40 }];
      case "runner_type":
        return "project_type";
      case "project_id":
        return space.project.id;
      case "group_id":
      case "namespace_id":
      case "parent_id":
        return space.group.id;
      case "user_id":
        return this.world.bystander.id;
      case "access_level":
        return 30;
      case "to_project_id":
        return other.project.id;
      case "runner_id":
        return space.runner.id;
      case "token":
        return this.world.spareRunnerToken;
      case "label_id":
        return route.path.startsWith("/groups") ? space.groupLabel.id : space.projectLabel.id;
      case "scopes":
        return ["api"];
      case "source_storage_name":
      case "destination_storage_name":
        return "default";
      case "user":
        return { username: `fuzz${n}`, name: `fuzz${n}`, email: `fuzz${n}@example.com`, password: "s3cret-passw0rd-fuzz" };
    }
    switch (info.kind) {
      case "int":
        return 1;
      case "bool":
        return true;
      case "enum":
        return info.options?.[0] ?? "x";
      case "date":
        return "2030-01-01";
      case "datetime":
        return "2030-01-01T00:00:00Z";
      case "array":
        return [];
      case "object":
        return {};
      default:
        return `fuzz-${n}`;
    }
  }

  private baseline(rp: RouteParams, target: Target, space: Space, other: Space): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const post = rp.route.method === "POST";
    for (const info of rp.inputParams) {
      if (info.name === target.name || info.name === "file") continue;
      if (info.required || ALWAYS_NAMES.has(info.name) || (post && CREATE_NAMES.has(info.name))) out[info.name] = this.baselineValue(info, rp.route, space, other);
    }
    return out;
  }

  private build(rp: RouteParams, target: Target, c: Case, web: boolean): { req: RawRequest; location: string; cls: string; shown: string } {
    const route = rp.route;
    const space = this.world[c.space];
    const other = this.world[c.space === "pub" ? "priv" : "pub"];
    const method = c.head ? "HEAD" : route.method;
    const headers: Record<string, string> = { Accept: "application/json" };
    const token = this.tokenOf(c.principal);
    if (token) headers["PRIVATE-TOKEN"] = token;
    let location = "";
    let cls = "";
    let shown = "";
    const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
      if (c.mutation.kind === "path" && target.name === name) return c.mutation.seg;
      return encodeURIComponent(pathValue(this.world, space, route.path, name));
    });
    const base = this.baseline(rp, target, space, other);
    const write = WRITE.has(route.method);
    const query: string[] = [];
    let body: Buffer | undefined;
    const jsonBody = (extra?: [string, string | Buffer]) => {
      const parts: Buffer[] = Object.entries(base).map(([k, v]) => Buffer.from(`${JSON.stringify(k)}:${JSON.stringify(v)}`));
      if (extra) parts.push(Buffer.concat([Buffer.from(`${JSON.stringify(extra[0])}:`), Buffer.from(extra[1])]));
      const inner: Buffer[] = [];
      parts.forEach((p, i) => inner.push(...(i ? [Buffer.from(","), p] : [p])));
      headers["Content-Type"] = "application/json";
      return Buffer.concat([Buffer.from("{"), ...inner, Buffer.from("}")]);
    };
    const m = c.mutation;
    if (m.kind === "path") {
      location = "path";
      cls = m.cls;
      shown = m.seg.length > 80 ? `${m.seg.slice(0, 40)}…(${m.seg.length} chars)` : m.seg;
      if (write && Object.keys(base).length) body = jsonBody();
      else if (!write) for (const [k, v] of Object.entries(base)) query.push(qsEncode(k, v));
    } else if (m.kind === "odd-body") {
      location = "body";
      cls = m.odd.cls;
      shown = m.odd.contentType;
      const key = rp.inputParams.find((p) => p.required)?.name ?? rp.inputParams[0]?.name ?? "name";
      headers["Content-Type"] = m.odd.contentType;
      Object.assign(headers, m.odd.headers ?? {});
      body = m.odd.body(key, base);
    } else {
      location = m.location;
      cls = m.hostile.cls;
      shown = m.hostile.show;
      if (m.location === "query") {
        query.push(m.hostile.query(target.name));
        if (write && Object.keys(base).length) body = jsonBody();
        else if (!write) for (const [k, v] of Object.entries(base)) query.push(qsEncode(k, v));
      } else if (m.location === "json") {
        body = jsonBody([target.name, m.hostile.json]);
      } else {
        const form = [...Object.entries(base).map(([k, v]) => qsEncode(k, v)), m.hostile.query(target.name)].join("&");
        headers["Content-Type"] = "application/x-www-form-urlencoded";
        body = Buffer.from(form);
      }
    }
    const prefix = web ? "" : "/api/v4";
    const target_ = `${prefix}${path}${query.length ? `?${query.join("&")}` : ""}`;
    return { req: { method, target: target_, headers, body }, location, cls, shown };
  }

  private async baseFingerprint(): Promise<Fingerprint> {
    if (!this.cachedFp) ({ fp: this.cachedFp, mark: this.cachedMark } = await this.fp(true));
    return this.cachedFp;
  }

  private async mark(): Promise<string> {
    const t = Date.now();
    const m = await writeMark(this.app.database);
    this.timing.fingerprint += Date.now() - t;
    this.timing.marks++;
    return m;
  }

  private problemsOf(method: string, res: RawResponse): string[] {
    const problems: string[] = [];
    if (res.error) return [`no answer: ${res.error}`];
    if (res.status >= 500) problems.push(`status ${res.status}`);
    if (res.status >= 400 && res.status < 500 && method !== "HEAD") {
      if (res.status === 429 && res.contentType.startsWith("text/plain")) return problems;
      let parsed: unknown;
      try {
        parsed = JSON.parse(res.text);
      } catch {
        parsed = undefined;
      }
      const shaped = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) && ("message" in parsed || "error" in parsed || isScimError(parsed, res.contentType));
      if (!shaped) problems.push(`${res.status} body is not a GitLab error (content-type ${res.contentType || "none"})`);
    }
    return problems;
  }

  private async one(rp: RouteParams, target: Target, c: Case, replay: { seed: number; run: number }, stats: RouteStats) {
    if (await this.ensureWorld(rp.route)) stats.rebuilds++;
    const web = rp.web;
    const built = this.build(rp, target, c, web);
    const { req } = built;
    const write = WRITE.has(req.method);
    const before = write ? await this.baseFingerprint() : null;
    const res = await send(this.app.url, req);
    stats.requests++;
    stats.ms += res.ms;
    const key = res.error ? "error" : String(res.status);
    stats.statuses[key] = (stats.statuses[key] ?? 0) + 1;
    stats.byPrincipal[`${c.principal} ${key}`] = (stats.byPrincipal[`${c.principal} ${key}`] ?? 0) + 1;
    const record = (problem: string) =>
      this.failures.push({
        route: `${rp.route.method} ${web ? "" : "/api/v4"}${rp.route.path}`,
        principal: c.principal,
        param: target.name,
        location: built.location,
        cls: built.cls,
        value: built.shown,
        problem,
        status: res.status,
        body: clip(res.text, 400),
        url: req.target.slice(0, 4000),
        request: `${req.method} ${clip(req.target, 240)}${req.body ? ` [${req.headers["Content-Type"]}] ${clip(req.body.toString("utf8"), 240)}` : ""}`,
        replay,
      });
    if (TRACE) fs.appendFileSync(TRACE, `${JSON.stringify({ route: `${rp.route.method} ${rp.route.path}`, param: target.name, location: built.location, cls: built.cls, value: built.shown, principal: c.principal, status: res.status, body: clip(res.text, 200) })}\n`);
    for (const p of this.problemsOf(req.method, res)) record(p);
    if (!res.error && res.status < 400 && mustRefuse(rp.route, built.cls, built.location)) record(`accepted (${res.status}) a value that must be refused`);
    if (!write) return;
    if (res.status >= 400 || res.error) {
      if ((await this.mark()) === this.cachedMark) return; // no transaction ended: no row changed
      const after = await this.fp();
      const diff = changedTables(before!, after.fp);
      if (diff.length === 0) {
        ({ fp: this.cachedFp, mark: this.cachedMark } = after);
        return;
      }
      // Confirm: from a settled state, the same request again.
      const before2 = await this.fp(true);
      const res2 = await send(this.app.url, req);
      const after2 = await this.fp();
      const diff2 = changedTables(before2.fp, after2.fp);
      this.cachedFp = null;
      if (res2.status >= 400 && diff2.length) record(`refused write (${res.status}, again ${res2.status}) changed rows: ${diff2.join(", ")}`);
      else if (res2.status >= 400) record(`refused write (${res.status}) changed rows: ${diff.join(", ")} (sent again, ${res2.status}, it changed nothing)`);
      else {
        // Accepted the second time: whether the first, refused, one wrote cannot be told apart.
        this.unconfirmed.push(`${req.method} ${clip(req.target, 120)} → ${res.status}: ${diff.join(", ")} (sent again: ${res2.status})`);
        this.routeWrote = true;
      }
      return;
    }
    // Accepted write: the fingerprint must be taken again; a removal, a move or a token rotation
    // may have taken a fixture away (checked before the next request), any other write is checked
    // after the route.
    this.cachedFp = null;
    this.routeWrote = true;
    if (req.method === "DELETE" || /\/(move|transfer|rotate)$/.test(rp.route.path)) this.worldDirty = true;
  }
}

/** Routes answering `application/scim+json` (the SCIM API) answer SCIM 2.0 error bodies (RFC 7644 §3.12), as GitLab does there. */
function isScimError(body: object, contentType: string): boolean {
  const schemas = (body as { schemas?: unknown }).schemas;
  return contentType.startsWith("application/scim+json") && Array.isArray(schemas) && schemas.includes("urn:ietf:params:scim:api:messages:2.0:Error") && "detail" in body;
}
