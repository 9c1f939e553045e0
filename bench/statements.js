// `node bench/statements.js`: how many SQL statements each benchmark request costs, in the single
// process and in the baseline, counted by PostgreSQL itself (pg_stat_statements) — the other half
// of "where the time goes" next to --cpu-prof (bench/README.md). Runs the built dist
// (`npm run build` first) on a throw-away PostgreSQL server with the benchmark's dataset.
//
//   STATEMENTS_REQUESTS=50 (requests per scenario)   STATEMENTS_TOP=12 (statements listed)
//   STATEMENTS_CONNECTIONS=1 (more: the requests sent that many at a time, as under load)
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const { startPostgres, freePort } = require("./postgres");
const { seed } = require("./seed");

const ROOT = path.join(__dirname, "..");
const N = Number(process.env.STATEMENTS_REQUESTS ?? 50);
const TOP = Number(process.env.STATEMENTS_TOP ?? 12);
/** More than 1: the requests are sent over this many connections at once (autocannon), as under load. */
const CONNECTIONS = Number(process.env.STATEMENTS_CONNECTIONS ?? 1);

/** `amount` requests over CONNECTIONS connections; every answer must be a 2xx. */
async function underLoad(url, headers, request, amount) {
  const autocannon = require("autocannon");
  let k = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [{ setupRequest: (req) => {
      const r = request(k++);
      return { ...req, path: r.path, method: r.method ?? "GET", body: r.body, headers: { ...headers, ...(r.body ? { "Content-Type": "application/json" } : {}) } };
    } }],
  });
  if (result.non2xx || result.errors) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors under load`);
  await new Promise((r) => setTimeout(r, 300)); // the events of the last writes
}
const ROOT_TOKEN = "glpat-root-token-for-tests-0001";

async function serve(script, env) {
  const port = await freePort();
  const childEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", EXTERNAL_URL: "http://collab.test", LOG_LEVEL: "warn", ...env };
  for (const k of ["TRANSPORTER", "PGLITE_DATA_DIR", "NODE_ID", "HEALTH_PORT", "METRICS_PORT"]) delete childEnv[k];
  const proc = spawn(process.execPath, [script], { cwd: ROOT, env: childEnv, stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/-/readiness`)).ok) return { url, proc };
    } catch {
      if (i > 600) throw new Error(`${script} did not start`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  const pg = await startPostgres({ settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } });
  const { Client } = require("pg");
  const admin = new Client({ connectionString: pg.url });
  await admin.connect();
  await admin.query("CREATE DATABASE bench_statements");
  await admin.end();
  const databaseUrl = pg.url.replace(/\/[^/]*$/, "/bench_statements");
  // The merge requests' project has a real repository: on this run's own storage.
  const storages = `default:${fs.mkdtempSync(path.join(os.tmpdir(), "bench-statements-repositories-"))}`;
  const single = await serve(path.join(ROOT, "apps/standalone/dist/embedded.js"), {
    DATABASE_URL: databaseUrl,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    SECRETS_KEY: process.env.SECRETS_KEY || randomBytes(32).toString("base64"),
    REPOSITORY_STORAGES: storages,
  });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const m = await seed(db, { storages });
  await db.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  const baseline = await serve(path.join(__dirname, "baseline-server.js"), { DATABASE_URL: databaseUrl });

  const headers = { "PRIVATE-TOKEN": m.users[6].token };
  const scenarios = {
    "GET /projects/:id/issues?per_page=20": () => ({ path: `/api/v4/projects/${m.projectId}/issues?per_page=20` }),
    "GET /issues?scope=all": () => ({ path: "/api/v4/issues?scope=all" }),
    "GET /projects/:id/issues/:iid/notes": () => ({ path: `/api/v4/projects/${m.projectId}/issues/${m.notesIid}/notes` }),
    "GET /projects/:id/merge_requests?per_page=20": () => ({ path: `/api/v4/projects/${m.projectId}/merge_requests?per_page=20` }),
    "POST /projects/:id/issues": (i) => ({
      path: `/api/v4/projects/${m.projectId}/issues`,
      method: "POST",
      body: JSON.stringify({ title: `Counted ${i}`, description: "- [ ] one", labels: "bug,priority::2", assignee_ids: [m.assigneeId], milestone_id: m.milestoneId }),
    }),
    // Closes and reopens one issue in turn: every request changes its state (an even number of them per mode).
    "PUT /projects/:id/issues/:iid?state_event=…": (i) => ({
      path: `/api/v4/projects/${m.projectId}/issues/${m.notesIid}?state_event=${i % 2 ? "reopen" : "close"}`,
      method: "PUT",
    }),
  };
  let k = 0;
  for (const [label, request] of Object.entries(scenarios)) {
    for (const [mode, server] of Object.entries({ single, baseline })) {
      const send = async () => {
        const r = request(k++);
        const res = await fetch(server.url + r.path, { method: r.method ?? "GET", headers: { ...headers, ...(r.body ? { "Content-Type": "application/json" } : {}) }, body: r.body });
        await res.text();
        if (!res.ok) throw new Error(`${mode} ${label}: ${res.status}`);
      };
      for (let i = 0; i < 5; i++) await send(); // warm: prepared statements, first-use lookups
      await new Promise((r) => setTimeout(r, 300));
      await db.query("SELECT pg_stat_statements_reset()");
      if (CONNECTIONS > 1) await underLoad(server.url, headers, request, N);
      else for (let i = 0; i < N; i++) await send();
      const { rows } = await db.query(
        `SELECT calls, mean_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query FROM pg_stat_statements
         WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC, query`,
      );
      const total = rows.reduce((s, r) => s + Number(r.calls), 0);
      process.stdout.write(`\n${label} — ${mode}: ${(total / N).toFixed(1)} statements per request (${N} requests; background workers included): calls per request, mean execution time\n`);
      for (const r of rows.slice(0, TOP)) process.stdout.write(`  ${(r.calls / N).toFixed(2).padStart(6)} ${Number(r.mean_exec_time).toFixed(3).padStart(7)} ms  ${r.query}\n`);
    }
  }
  await db.end();
  await Promise.all([single, baseline].map((s) => new Promise((resolve) => (s.proc.once("exit", resolve), s.proc.kill("SIGTERM")))));
  await pg.stop();
  fs.rmSync(storages.slice("default:".length), { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
