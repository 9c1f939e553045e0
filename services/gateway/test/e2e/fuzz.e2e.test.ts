import type { TestApp } from "@collab/testing";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { contractActions } from "../../src/contracts";
import { mountedRoutes, mountedWebRoutes } from "../../src/routes";
import { startApp } from "@collab/standalone/test/app";
import { discoverRoutes, type RouteParams } from "../fuzz/discover";
import { Fuzzer, SEED, type Failure, type RouteStats, type Target } from "../fuzz/fuzzer";
import { ODD_BODY_KINDS } from "../fuzz/hostile";
import { closeAgent } from "../fuzz/send";

/**
 * Property-based fuzzing of the whole route table (mountedRoutes and mountedWebRoutes, read from
 * the gateway's source, so a route added later is fuzzed without touching this file).
 *
 * For every route and every parameter (path params, the keys of the action's zod input schema,
 * and the body as a whole for writes), fast-check (seeded) generates hostile values one parameter
 * at a time — wrong types, NUL bytes, lone surrogates and invalid UTF-8, out-of-range integers,
 * impossible dates, 100,000-char strings, 20,000-deep JSON, odd content types, and valid but odd
 * Unicode (direction overrides, zero-width characters and BOM, C0/C1 controls, emoji ZWJ sequences
 * and flags, combining marks, noncharacters; raw and as ASCII-only JSON escapes) in query, path
 * and body — and sends them as anonymous, an outsider and a member (root too on reads), every
 * other parameter valid. Every write route taking params also gets the JSON bodies `null`, `[]`,
 * `[1]`, `{}` and an empty one (root sends `{}` and `null` to PUT and PATCH routes). Path ids
 * come from a fixture world built once through the API (fuzz/world.ts), required body params from
 * fuzz/fuzzer.ts's baseline. Every answer must be < 500, every 4xx a GitLab error body, a value
 * PostgreSQL cannot store (NUL, a lone surrogate) or an escape that decodes to no UTF-8 must be
 * refused wherever it is, and a refused write must leave every table of every service schema as
 * it was (fuzz/fingerprint.ts).
 *
 * Failures are collected; each route's test fails with its list (route, principal, parameter,
 * value, the request and fast-check's seed and run). The whole list is written to
 * $FUZZ_REPORT (default: <tmpdir>/collab-fuzz-report.json).
 *
 * Budget: about FUZZ_BUDGET requests in all (default 20000, ~23,700 sent; see runsFor), at least
 * one per parameter plus the six fixed mutations of every path parameter and the fixed bodies of
 * every write route. Measured on 2 busy cores: ~60-110 s. Run with LOG_LEVEL=error to see, in the
 * gateway's "request failed" lines, the error behind each 500; FUZZ_SEED sweeps other values,
 * FUZZ_TRACE=<file> records every request.
 *
 * The distributed pass (TEST_GATEWAY_URL) runs it through HTTP as well, and the fingerprints read
 * the topology's database through app.database. There every request crosses the bus four times
 * over (~10 ms instead of ~3), so its default budget is 8000: still every parameter, every fixed
 * mutation and every odd body, and generated values of its own (FUZZ_SEED + 1, see fuzzer.ts),
 * so that the two passes together try more values than either alone.
 */

// Background workers would change rows between two fingerprints: tests tick them by hand.
process.env.SCHEDULER_INTERVAL_MS ??= "0";
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";
process.env.STORAGE_MOVE_TICK_MS ??= "0";
process.env.IMPORT_EXPORT_TICK_MS ??= "0";
process.env.DELETION_PURGE_INTERVAL_MS ??= "0";

const actions = contractActions();
const ROUTES: RouteParams[] = [...discoverRoutes(mountedRoutes, actions), ...discoverRoutes(mountedWebRoutes, actions, { web: true })];
const BUDGET = Number(process.env.FUZZ_BUDGET ?? (process.env.TEST_GATEWAY_URL ? 8000 : 20000));
const TARGETS = ROUTES.reduce((n, r) => n + r.pathParams.length + r.inputParams.length + (r.route.method === "GET" ? 0 : 1), 0);
/** No route takes more than this share of the budget (application settings has ~300 params). */
const ROUTE_CAP = BUDGET / 20;
/**
 * Runs per parameter of a route: an even share of the budget (at least one, at most 24), less when
 * the route has so many parameters that it would pass ROUTE_CAP. Path params get half as many
 * generated runs (after their six fixed ones), the body as a whole at most one per odd body kind.
 */
function runsFor(rp: RouteParams, target: Target): number {
  const targets = rp.pathParams.length + rp.inputParams.length + (rp.route.method === "GET" ? 0 : 1);
  let runs = Math.max(1, Math.min(24, Math.round(BUDGET / TARGETS)));
  if (runs * targets > ROUTE_CAP) runs = Math.max(1, Math.floor(ROUTE_CAP / targets));
  if (target.where === "path") return Math.ceil(runs / 2);
  if (target.where === "body") return Math.min(runs, ODD_BODY_KINDS);
  return runs;
}
const REPORT = process.env.FUZZ_REPORT ?? path.join(os.tmpdir(), "collab-fuzz-report.json");

const label = (r: RouteParams) => `${r.route.method} ${r.web ? "" : "/api/v4"}${r.route.path} (${r.route.action})`;

let app: TestApp;
let fuzzer: Fuzzer;
const started = Date.now();

beforeAll(async () => {
  app = await startApp("fuzz");
  fuzzer = new Fuzzer(app);
  await fuzzer.init();
}, 180_000);

afterAll(async () => {
  if (fuzzer) {
    const stats = fuzzer.stats;
    const requests = stats.reduce((a, s) => a + s.requests, 0);
    const statuses: Record<string, number> = {};
    const byPrincipal: Record<string, number> = {};
    for (const s of stats) for (const [k, v] of Object.entries(s.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    for (const s of stats) for (const [k, v] of Object.entries(s.byPrincipal)) byPrincipal[k] = (byPrincipal[k] ?? 0) + v;
    const summary = {
      seed: SEED,
      budget: BUDGET,
      routes: ROUTES.length,
      requests,
      request_ms: stats.reduce((a, s) => a + s.ms, 0),
      wall_ms: Date.now() - started,
      world_repairs: fuzzer.repairs,
      world_rebuilds: fuzzer.rebuilds - 1,
      statuses,
      by_principal: Object.fromEntries(Object.entries(byPrincipal).sort()),
      tables: fuzzer.tables.length,
      timing_ms: fuzzer.timing,
      failures: fuzzer.failures.length,
      slowest_routes: [...stats].sort((a, b) => b.ms - a.ms).slice(0, 10).map((s) => `${s.route}: ${s.requests} requests, ${s.ms} ms`),
    };
    fs.writeFileSync(REPORT, JSON.stringify({ summary, failures: fuzzer.failures, unconfirmed: fuzzer.unconfirmed, stats }, null, 2));
    // eslint-disable-next-line no-console
    console.log(`fuzz: ${JSON.stringify(summary, null, 2)}\nfull report: ${REPORT}`);
  }
  closeAgent();
  await app?.stop();
});

/** One line per distinct problem of a route (same param, location, class, status), with a count. */
function describeFailures(list: Failure[]): string {
  const groups = new Map<string, { first: Failure; n: number }>();
  for (const f of list) {
    const key = `${f.problem.replace(/\d+ ms/, "")}|${f.param}|${f.location}|${f.cls}|${f.status}`;
    const g = groups.get(key);
    if (g) g.n++;
    else groups.set(key, { first: f, n: 1 });
  }
  return [...groups.values()]
    .map(({ first: f, n }) =>
      [
        `- ${f.problem} — param ${f.param} (${f.location}, ${f.cls}) = ${f.value}, as ${f.principal}${n > 1 ? ` [${n} times]` : ""}`,
        `    request:  ${f.request}`,
        `    answer:   ${f.status} ${f.body}`,
        `    fast-check: { seed: ${f.replay.seed}, run: ${f.replay.run} }`,
      ].join("\n"),
    )
    .join("\n");
}

describe("fuzz: hostile parameters on every route", () => {
  test.each(ROUTES.map((r) => [label(r), r] as const))("%s", async (name, rp) => {
    const stats: RouteStats = { route: name, requests: 0, ms: 0, statuses: {}, byPrincipal: {}, rebuilds: 0 };
    fuzzer.stats.push(stats);
    const from = fuzzer.failures.length;
    const targets = fuzzer.targetsOf(rp);
    for (const target of targets) await fuzzer.fuzz(rp, target, runsFor(rp, target), stats);
    if (await fuzzer.endRoute(rp.route)) stats.rebuilds++;
    const mine = fuzzer.failures.slice(from);
    if (mine.length) throw new Error(`${mine.length} failing request(s) on ${name}${rp.fallback ? " (schema unreadable: common names fuzzed)" : ""}:\n${describeFailures(mine)}`);
  }, 600_000);
});
