// `npm run bench`: load-tests the API in three modes against one seeded dataset and compares each
// with a plain node:http + pg server doing the same requests (bench/README.md explains it all).
//
//   1. npm run build (the modes run the built dist)                   BENCH_SKIP_BUILD=1 skips it
//   2. a throw-away PostgreSQL server on 127.0.0.1 (bench/postgres.js)
//   3. distributed: scripts/topology.js (nats-server, one process per service it lists, gateway)
//      on its scratch database, seeded (bench/seed.js)
//   4. single (apps/standalone/dist/embedded.js, one worker per core) on a database of its own on
//      the same server, seeded alike; the baseline (bench/baseline-server.js) at one process and
//      at one per core beside each of the two; embedded (embedded.js as `npm start` runs it: its
//      own embedded PostgreSQL with default settings, in its own folder, seeded alike)
//   5. checks that every mode answers the read scenarios, and that single and distributed answer
//      them byte for byte like the baseline on their database
//   6. for each scenario and connection count, rounds of: the machine settling, a warm-up, then a
//      measured run, one mode after the other (the order rotates), by autocannon in a separate
//      process (bench/load.js)
//   7. prints the table, writes bench/results/latest.json (and latest-details.json), stops everything
//
// Knobs (environment): BENCH_MODES=single,distributed,embedded (baselines added)  BENCH_CONNECTIONS=32,8
// BENCH_DURATION=10,5 (measured seconds per cell, per connection count, split over the rounds)
// BENCH_ROUNDS=2  BENCH_WARMUP=1 (seconds before each measured run)  BENCH_FIRST_WARMUP=4 (before a
// mode's first run of a scenario)  BENCH_SCENARIOS=<substring,…>
// BENCH_PRIME=2 (seconds of each read scenario on every mode before the first measurement)
// BENCH_CPU_PROF=1 (the baseline, the single process and every distributed service process run with
// --cpu-prof into bench/results/profiles)
"use strict";
const { spawn, spawnSync, fork } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startPostgres, freePort } = require("./postgres");
const { seed } = require("./seed");
const { prepareCloneRepository, CLONE_COMMITS } = require("./clone");

const ROOT = path.join(__dirname, "..");
const RESULTS = path.join(__dirname, "results");
const EXTERNAL_URL = "http://collab.test";
/** The key the single mode seals stored credentials with (the distributed topology makes its own; the embedded mode keeps one beside its database, as npm start does). */
const SECRETS_KEY = process.env.SECRETS_KEY || randomBytes(32).toString("base64");

const SCENARIOS = [
  "GET /projects/:id/issues",
  "GET /issues?scope=all",
  "GET /projects/:id/issues/:iid/notes",
  "GET /projects/:id/merge_requests",
  "POST /projects/:id/issues",
  "PUT /projects/:id/issues/:iid",
  "git clone",
];
/** The clone scenario: git clients instead of autocannon, its own baseline and connection count. */
const CLONE = "git clone";
/** How the table names them (the request each sends). */
const LABELS = {
  "GET /projects/:id/issues": "GET /projects/:id/issues?per_page=20",
  "GET /issues?scope=all": "GET /issues?scope=all",
  "GET /projects/:id/issues/:iid/notes": "GET /projects/:id/issues/:iid/notes",
  "GET /projects/:id/merge_requests": "GET /projects/:id/merge_requests?per_page=20",
  "POST /projects/:id/issues": "POST /projects/:id/issues",
  "PUT /projects/:id/issues/:iid": "PUT /projects/:id/issues/:iid?state_event=…",
  [CLONE]: `git clone --bare (${CLONE_COMMITS} commits)`,
};

const list = (v, d) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : d);
const config = {
  modes: list(process.env.BENCH_MODES, ["single", "distributed", "embedded"]),
  connections: list(process.env.BENCH_CONNECTIONS, ["32", "8"]).map(Number),
  durations: list(process.env.BENCH_DURATION, ["10", "5"]).map(Number),
  rounds: Number(process.env.BENCH_ROUNDS ?? 2),
  warmup: Number(process.env.BENCH_WARMUP ?? 1),
  /**
   * Before a mode's first run of a scenario: its processes' JIT has not yet settled on the
   * scenario's code paths (other scenarios ran last), which costs every mode, baselines included,
   * 15–60% more CPU per request over a first round of a 1 s warm-up (bench/README.md).
   */
  firstWarmup: Number(process.env.BENCH_FIRST_WARMUP ?? 4),
  prime: Number(process.env.BENCH_PRIME ?? 2),
  scenarios: (() => {
    const filters = list(process.env.BENCH_SCENARIOS, null);
    // A filter naming a scenario exactly selects just it; anything else matches as a substring.
    const match = (s, f) => s === f || (!SCENARIOS.includes(f) && s.toLowerCase().includes(f.toLowerCase()));
    return filters ? SCENARIOS.filter((s) => filters.some((f) => match(s, f))) : SCENARIOS;
  })(),
  cpuProf: process.env.BENCH_CPU_PROF === "1",
  /** Concurrent clones, and measured seconds per mode (split over the rounds). */
  cloneConnections: Number(process.env.BENCH_CLONE_CONNECTIONS ?? 4),
  cloneDuration: Number(process.env.BENCH_CLONE_DURATION ?? 10),
};
/** The clone scenario's baseline: `git http-backend` (CGI) behind node:http (bench/git-baseline-server.js). */
const GIT_BASELINE = "git-http-backend";
/** The modes that serve git (the embedded mode's repository is not prepared: its database is its own server's). */
const cloneModes = () => [GIT_BASELINE, ...config.modes.filter((m) => m === "single" || m === "distributed")];
const modesOf = (scenario) => (scenario === CLONE ? cloneModes() : config.modes);
const connectionsOf = (scenario) => (scenario === CLONE ? [config.cloneConnections] : config.connections);
/** The baseline at one process and at one per core: ratios take the faster (issue 29). */
/**
 * The baseline at one process and at one per core, on each deployment's database: `baseline` and
 * `baseline-workers` beside the single node (its idle relays deliver their events, as it delivers
 * its own), `baseline-topology` and `baseline-workers-topology` beside the distributed topology
 * (its relays and consumers deliver them). Ratios take the faster of a deployment's two.
 */
const NODE_BASELINES = ["baseline", "baseline-workers"];
const TOPOLOGY_BASELINES = ["baseline-topology", "baseline-workers-topology"];
const BASELINES = [...NODE_BASELINES, ...TOPOLOGY_BASELINES];
config.modes = config.modes.filter((m) => !BASELINES.includes(m));
config.modes = [...NODE_BASELINES, ...(config.modes.includes("distributed") ? TOPOLOGY_BASELINES : []), ...config.modes]; // ratios need them
/** The baselines a mode is compared with. */
const baselinesOf = (mode) => (mode === "distributed" || TOPOLOGY_BASELINES.includes(mode) ? TOPOLOGY_BASELINES : NODE_BASELINES);
const durationFor = (conns, scenario) => (scenario === CLONE ? config.cloneDuration : config.durations[Math.min(config.connections.indexOf(conns), config.durations.length - 1)]);

const log = (msg) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, check, timeoutMs = 120_000, proc) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    if (proc && proc.exitCode !== null) throw new Error(`${what}: process exited with ${proc.exitCode}`);
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ""}`);
}
const ready = (url) => fetch(`${url}/-/readiness`).then((r) => r.ok);

// ---- processes we start, stopped on the way out whatever happens ----------------------------------

const cleanups = [];
let workDir;

function startNode(name, script, env, args = []) {
  const logFile = path.join(workDir, `${name}.log`);
  const fd = fs.openSync(logFile, "a");
  const proc = spawn(process.execPath, [...args, script], { cwd: ROOT, env, stdio: ["ignore", fd, fd] });
  fs.closeSync(fd);
  const stop = () =>
    new Promise((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      proc.once("exit", () => (clearTimeout(timer), resolve()));
      proc.kill("SIGTERM");
    });
  cleanups.push(stop);
  return { proc, stop, logFile };
}

async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (err) {
      log(`cleanup: ${err.message}`);
    }
  }
}

// ---- the modes ----------------------------------------------------------------------------------

function serviceEnv(extra) {
  const env = { ...process.env, EXTERNAL_URL, LOG_LEVEL: "warn", HOST: "127.0.0.1", NODE_OPTIONS: "", ...extra };
  for (const k of ["TRANSPORTER", "DATABASE_URL", "PGLITE_DATA_DIR", "NODE_ID", "HEALTH_PORT", "METRICS_PORT", "TEST_DATABASE_SERVER", "SECRETS_KEY"]) if (!(k in extra)) delete env[k];
  return env;
}

/**
 * --cpu-prof for a profiled mode: one .cpuprofile per process in a folder named after the mode,
 * under node's default names (with the pid: cluster workers inherit the flags, and a fixed name
 * would have each process overwrite the last one's).
 */
function cpuProfArgs(mode) {
  if (!config.cpuProf) return [];
  return ["--cpu-prof", `--cpu-prof-dir=${path.join(RESULTS, "profiles", mode)}`];
}

async function startSingle(databaseUrl, rootToken) {
  const port = await freePort();
  const storages = `default:${path.join(workDir, "repositories-single")}`;
  const env = serviceEnv({ DATABASE_URL: databaseUrl, PORT: String(port), INITIAL_ROOT_TOKEN: rootToken, SECRETS_KEY, REPOSITORY_STORAGES: storages });
  const p = startNode("single", path.join(ROOT, "apps/standalone/dist/embedded.js"), env, cpuProfArgs("single"));
  const url = `http://127.0.0.1:${port}`;
  await waitFor("single-process API", () => ready(url), 120_000, p.proc);
  return { url, stop: p.stop, pids: { single: p.proc.pid }, storages };
}

/** The baseline with `workers` processes (node:cluster; 1: one process), as the mode `name`. */
/** A database of its own for the single node and the baselines, beside the topology's. */
async function singleNodeDatabase(serverUrl) {
  const { Client } = require("pg");
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query("CREATE DATABASE bench_single_node");
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = "/bench_single_node";
  return url.toString();
}

async function startBaseline(databaseUrl, name = "baseline", workers = 1) {
  const port = await freePort();
  const p = startNode(name, path.join(__dirname, "baseline-server.js"), serviceEnv({ DATABASE_URL: databaseUrl, PORT: String(port), WORKERS: String(workers) }), cpuProfArgs(name));
  const url = `http://127.0.0.1:${port}`;
  await waitFor("baseline server", () => ready(url), 30_000, p.proc);
  return { url, stop: p.stop, pids: { [name]: p.proc.pid } };
}

/**
 * The `npm start` path: embedded.js without DATABASE_URL, on its own embedded PostgreSQL in
 * EMBEDDED_PG_DIR (default settings). Started once (initdb, migrations, root), stopped; that
 * server is started alone to seed it (same generator as the others); then embedded.js again.
 */
async function startEmbedded(rootToken) {
  const dir = path.join(workDir, "embedded-postgres");
  const storages = `default:${path.join(workDir, "repositories-embedded")}`;
  const env = async () => serviceEnv({ EMBEDDED_PG_DIR: dir, PORT: String(await freePort()), INITIAL_ROOT_TOKEN: rootToken, REPOSITORY_STORAGES: storages });
  const first = await env();
  let p = startNode("embedded-init", path.join(ROOT, "apps/standalone/dist/embedded.js"), first);
  await waitFor("embedded API (initdb, migrations)", () => ready(`http://127.0.0.1:${first.PORT}`), 180_000, p.proc);
  await p.stop();
  const { startEmbeddedPostgres } = require(path.join(ROOT, "shared/db/dist"));
  const server = await startEmbeddedPostgres({ dir });
  const { Client } = require("pg");
  const client = new Client({ connectionString: server.url });
  await client.connect();
  const manifest = await seed(client, { storages });
  await client.end();
  await server.stop();
  const second = await env();
  p = startNode("embedded", path.join(ROOT, "apps/standalone/dist/embedded.js"), second);
  const url = `http://127.0.0.1:${second.PORT}`;
  await waitFor("embedded API", () => ready(url), 180_000, p.proc);
  const postmaster = Number(fs.readFileSync(path.join(dir, "pgdata", "postmaster.pid"), "utf8").split("\n")[0]);
  // Its PostgreSQL is its own: CPU is counted from that server, not the shared one.
  return { url, stop: p.stop, manifest, pids: { embedded: p.proc.pid }, cpuSources: { postgres: () => postgresCpuMs(postmaster) } };
}

// ---- checks before measuring ------------------------------------------------------------------------

const readPaths = (m) => [
  `/api/v4/projects/${m.projectId}/issues?per_page=20`,
  "/api/v4/issues?scope=all",
  `/api/v4/projects/${m.projectId}/issues/${m.notesIid}/notes`,
  `/api/v4/projects/${m.projectId}/merge_requests?per_page=20`,
];

function shape(v) {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return v === null ? "null" : typeof v;
}

/**
 * Every mode answers the reads with the seeded totals, and a mode on a baseline's database the
 * same bytes as that baseline (embedded, with data of its own: the same JSON shape).
 */
async function checkModes(servers, manifests) {
  const checks = {};
  const fetchText = async (url, token) => {
    const res = await fetch(url, { headers: { "PRIVATE-TOKEN": token } });
    return { status: res.status, total: res.headers.get("x-total"), body: await res.text() };
  };
  const token = (mode) => manifests[mode].users[0].token;
  const answers = {};
  const answersOf = (mode) => (answers[mode] ??= Promise.all(readPaths(manifests[mode]).map((p) => fetchText(servers[mode].url + p, token(mode)))));
  for (const mode of Object.keys(servers)) {
    const m = manifests[mode];
    const got = await answersOf(mode);
    const expected = [String(m.mainIssues), String(m.counts.issues), String(m.notesOnHeavyIssue), String(m.mergeRequests)];
    got.forEach((g, i) => {
      if (g.status !== 200 || g.total !== expected[i]) throw new Error(`${mode}: GET ${readPaths(m)[i]} answered ${g.status} X-Total ${g.total}, expected 200 X-Total ${expected[i]}`);
    });
    const reference = baselinesOf(mode)[0];
    const base = await answersOf(reference);
    const sameData = m === manifests[reference];
    const same = got.map((g, i) => (sameData ? g.body === base[i].body : JSON.stringify(shape(JSON.parse(g.body))) === JSON.stringify(shape(JSON.parse(base[i].body)))));
    checks[mode] = {
      comparison: sameData ? `byte-identical to ${reference}` : "same JSON shape (own data)",
      ok: same.every(Boolean),
      bytes: got.map((g) => g.body.length),
    };
    if (!checks[mode].ok) log(`WARNING: ${mode} answers differ from ${reference}'s (${same.map((s, i) => `${readPaths(m)[i]}: ${s ? "same" : "DIFFERENT"}`).join("; ")})`);
  }
  return checks;
}

// ---- memory ------------------------------------------------------------------------------------------

/** Resident set size of a process in MiB (Linux /proc), null when it is gone. */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : null;
  } catch {
    return null;
  }
}
/**
 * A process and its descendants (a mode's workers: node:cluster forks them), without PostgreSQL
 * (the embedded mode's server is a child of its process; it is counted as PostgreSQL).
 */
function processTree(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (!f) continue;
    const parent = Number(f[1]);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(Number(entry));
  }
  const isPostgres = (p) => {
    try {
      return fs.readFileSync(`/proc/${p}/comm`, "utf8").trim() === "postgres";
    } catch {
      return true;
    }
  };
  const out = [];
  const walk = (p) => {
    out.push(p);
    for (const c of children.get(p) ?? []) if (!isPostgres(c)) walk(c);
  };
  walk(pid);
  return out;
}
const sumOver = (pids, read) => pids.reduce((s, p) => (s === null ? null : ((v) => (v === null ? s : s + v))(read(p))), 0);
/** Every process of a mode with its RSS (with its workers), and their total (distributed: one process per service and nats-server). */
function memoryOf(server) {
  const processes = Object.fromEntries(Object.entries(server.pids ?? {}).map(([name, pid]) => [name, rssMb(pid) === null ? null : Math.round(sumOver(processTree(pid), rssMb) * 10) / 10]));
  const total = Object.values(processes).reduce((s, v) => s + (v ?? 0), 0);
  return { processes, total: Math.round(total * 10) / 10 };
}

// ---- CPU ---------------------------------------------------------------------------------------------

const TICK_MS = 1000 / 100; // USER_HZ: /proc counts CPU time in 1/100 s on Linux
/** A process's /proc/<pid>/stat fields after the name (field 3 on), null when it is gone. */
function statFields(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" "); // the name may hold spaces
  } catch {
    return null;
  }
}
/** utime + stime of stat fields, in ms. */
const ownCpuMs = (f) => (Number(f[11]) + Number(f[12])) * TICK_MS;
/** User + system CPU time of a process in ms (Linux /proc), null when it is gone. */
function cpuMs(pid) {
  const f = statFields(pid);
  return f ? ownCpuMs(f) : null;
}
/**
 * PostgreSQL's CPU time in ms: the postmaster's own, its live children's (backends, background
 * workers) and its reaped children's (cutime, cstime: a backend that exited keeps counting).
 */
function postgresCpuMs(postmasterPid) {
  const own = statFields(postmasterPid);
  if (!own) return null;
  let total = ownCpuMs(own) + (Number(own[13]) + Number(own[14])) * TICK_MS; // + cutime, cstime
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (f && Number(f[1]) === postmasterPid) total += ownCpuMs(f); // a child: ppid is field 4
  }
  return total;
}
/**
 * CPU counters of everything on the machine's cores during a measurement: the mode's processes,
 * PostgreSQL and the load generator.
 */
function cpuSnapshot(server, extra) {
  // A process with its workers (live: they do not exit during a measurement).
  const out = Object.fromEntries(Object.entries(server.pids ?? {}).map(([name, pid]) => [name, cpuMs(pid) === null ? null : sumOver(processTree(pid), cpuMs)]));
  for (const [name, read] of Object.entries({ ...extra, ...server.cpuSources })) out[name] = read();
  return out;
}
/** CPU ms per request of each process between two snapshots. */
function cpuPerRequest(before, after, requests) {
  const out = {};
  for (const [name, b] of Object.entries(before)) {
    if (b === null || after[name] === null || after[name] === undefined || !requests) continue;
    out[name] = Math.round(((after[name] - b) / requests) * 1000) / 1000;
  }
  return out;
}

// ---- measuring ----------------------------------------------------------------------------------------

/** The machine's busy and total CPU time so far (Linux /proc/stat, all cores), in ticks. */
function machineTicks() {
  const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const n = fields.map(Number);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - n[3] - n[4], total }; // minus idle and iowait
}
/**
 * Waits until the machine is quiet: a write run leaves events behind that the idle modes (the
 * topology's relays and consumers, the single process's) are still delivering, and a measurement
 * started then would pay for another mode's writes. Quiet: under 15% of the cores busy over two
 * half-second windows in a row; gives up after a minute. Answers the milliseconds waited.
 */
async function settle() {
  const started = Date.now();
  let quiet = 0;
  while (quiet < 2 && Date.now() - started < 60_000) {
    const a = machineTicks();
    await sleep(500);
    const b = machineTicks();
    quiet = (b.busy - a.busy) / Math.max(1, b.total - a.total) < 0.15 ? quiet + 1 : 0;
  }
  return Date.now() - started;
}

let loader;
let jobId = 0;
/** One load job; `onMeasuring` runs when the warm-up is over and the measured run starts. */
function measure(job, onMeasuring = () => undefined) {
  return new Promise((resolve, reject) => {
    const id = ++jobId;
    const onMessage = (msg) => {
      if (msg.id !== id) return;
      if (msg.measuring) return void onMeasuring();
      loader.off("message", onMessage);
      if (msg.error) reject(new Error(msg.error));
      else resolve(msg.result);
    };
    loader.on("message", onMessage);
    loader.send({ ...job, id });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** CPU ms per request of each process over the rounds (weighted by their requests), and their sum. */
function meanCpu(runs) {
  const sums = {};
  let requests = 0;
  for (const r of runs) {
    if (!r.cpuMsPerRequest || !r.requests) continue;
    requests += r.requests;
    for (const [name, ms] of Object.entries(r.cpuMsPerRequest)) sums[name] = (sums[name] ?? 0) + ms * r.requests;
  }
  const processes = Object.fromEntries(Object.entries(sums).map(([name, v]) => [name, Math.round((v / requests) * 1000) / 1000]));
  const total = Object.values(processes).reduce((s, v) => s + v, 0);
  return { processes, total: Math.round(total * 1000) / 1000 };
}

function aggregate(raw) {
  const cells = new Map();
  for (const r of raw) {
    const key = `${r.scenario}|${r.mode}|${r.connections}`;
    if (!cells.has(key)) cells.set(key, { scenario: r.scenario, mode: r.mode, connections: r.connections, runs: [] });
    cells.get(key).runs.push(r.result);
  }
  const rows = [...cells.values()].map((c) => ({
    scenario: c.scenario,
    mode: c.mode,
    connections: c.connections,
    // Requests over measured time across the rounds; latency percentiles: median over the rounds.
    rps: c.runs.reduce((s, r) => s + r.requests, 0) / c.runs.reduce((s, r) => s + r.duration, 0),
    p50: median(c.runs.map((r) => r.p50)),
    p90: median(c.runs.map((r) => r.p90)),
    p99: median(c.runs.map((r) => r.p99)),
    errors: c.runs.reduce((s, r) => s + r.non2xx + r.socketErrors + r.timeouts, 0),
    // The mode's processes together, the most seen after any of the rounds.
    rss_mb: Math.max(...c.runs.map((r) => r.memory.total)),
    cpu: meanCpu(c.runs),
    // Clones: bytes of the packs received over measured time.
    ...(c.scenario === CLONE ? { mbps: c.runs.reduce((s, r) => s + r.bytesPerRequest * r.requests, 0) / c.runs.reduce((s, r) => s + r.duration, 0) / 1e6 } : {}),
  }));
  for (const row of rows) {
    const base = referenceOf(rows, row.scenario, row.connections, row.mode);
    row.ratio_to_baseline = base && base.rps > 0 ? row.rps / base.rps : null;
  }
  const order = (r) => [config.scenarios.indexOf(r.scenario), connectionsOf(r.scenario).indexOf(r.connections), modesOf(r.scenario).indexOf(r.mode)];
  return rows.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/**
 * The baseline a cell is compared with: the faster of the baseline's worker counts (one process,
 * one per core) on the same scenario and connection count, measured in the same run.
 */
function referenceOf(rows, scenario, connections, mode) {
  const bases = rows.filter((b) => (scenario === CLONE ? [GIT_BASELINE] : baselinesOf(mode)).includes(b.mode) && b.scenario === scenario && b.connections === connections);
  return bases.reduce((best, b) => (!best || b.rps > best.rps ? b : best), undefined);
}

function table(rows) {
  const head = ["scenario", "mode", "conns", "req/s", "p50 ms", "p90 ms", "p99 ms", "errors", "× baseline", "RSS MiB"];
  const body = rows.map((r) => [
    LABELS[r.scenario],
    r.mode,
    String(r.connections),
    r.rps.toFixed(r.rps < 10 ? 2 : 0), // clones/s: a few
    r.p50.toFixed(1),
    r.p90.toFixed(1),
    r.p99.toFixed(1),
    String(r.errors),
    r.ratio_to_baseline === null ? "-" : r.ratio_to_baseline.toFixed(2),
    r.rss_mb.toFixed(0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const right = new Set([2, 3, 4, 5, 6, 7, 8, 9]);
  const fmt = (cells) => `| ${cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(" | ")} |`;
  return [fmt(head), `|${widths.map((w, i) => (right.has(i) ? `${"-".repeat(w + 1)}:` : `:${"-".repeat(w + 1)}`)).join("|")}|`, ...body.map(fmt)].join("\n");
}

/** The targets of the performance work (issue 29): ratio floors per scenario and mode at 32 connections. */
const TARGETS = [
  ["GET /projects/:id/issues", "single", 0.9],
  ["GET /projects/:id/issues/:iid/notes", "single", 0.9],
  ["GET /projects/:id/merge_requests", "single", 0.7],
  ["POST /projects/:id/issues", "single", 0.7],
  ["PUT /projects/:id/issues/:iid", "single", 0.6],
  ["GET /projects/:id/issues", "distributed", 0.7],
  ["GET /projects/:id/issues/:iid/notes", "distributed", 0.7],
  ["GET /projects/:id/merge_requests", "distributed", 0.6],
  ["POST /projects/:id/issues", "distributed", 0.5],
];

/** Whole-machine CPU per request on the two lists, at most this many times the baseline's. */
const CPU_CEILINGS = { single: 1.2, distributed: 1.6 };
const CPU_SCENARIOS = ["GET /projects/:id/issues", "GET /projects/:id/issues/:iid/notes"];

function targets(rows) {
  const cell = (prefix, mode) => rows.find((r) => (r.scenario === prefix || r.scenario.startsWith(`${prefix}?`)) && r.mode === mode && r.connections === 32);
  const out = [];
  for (const [scenario, mode, floor] of TARGETS) {
    const c = cell(scenario, mode);
    if (c) out.push(`${mode} ${LABELS[c.scenario]} @32: ${c.ratio_to_baseline.toFixed(2)} of baseline (target ≥ ${floor}): ${c.ratio_to_baseline >= floor ? "MET" : "MISSED"}`);
  }
  for (const [mode, ceiling] of Object.entries(CPU_CEILINGS))
    for (const scenario of CPU_SCENARIOS) {
      const c = cell(scenario, mode);
      const base = c && referenceOf(rows, c.scenario, 32, mode);
      if (c?.cpu?.total && base?.cpu?.total) {
        const ratio = c.cpu.total / base.cpu.total;
        out.push(`${mode} ${LABELS[c.scenario]} @32: CPU ${c.cpu.total} ms/request, ${ratio.toFixed(2)}× the baseline's (target ≤ ${ceiling}×): ${ratio <= ceiling ? "MET" : "MISSED"}`);
      }
    }
  for (const c of rows.filter((r) => r.connections === 32 && !BASELINES.includes(r.mode) && r.mode !== "embedded")) {
    const base = referenceOf(rows, c.scenario, 32, c.mode);
    if (base) out.push(`${c.mode} ${LABELS[c.scenario]} @32: p99 ${c.p99} ms vs ${base.mode} ${base.p99} ms (target ≤ 2×): ${c.p99 <= 2 * base.p99 ? "MET" : "MISSED"}`);
  }
  // The npm start path against the single process on the same requests, and its tail latency.
  for (const c of rows.filter((r) => r.mode === "embedded" && r.scenario.startsWith("GET"))) {
    const at = (mode) => rows.find((r) => r.scenario === c.scenario && r.mode === mode && r.connections === c.connections);
    const single = at("single");
    const base = referenceOf(rows, c.scenario, c.connections, "embedded");
    if (single) out.push(`embedded ${LABELS[c.scenario]} @${c.connections}: ${(c.rps / single.rps).toFixed(2)} of single (target ≥ 0.8): ${c.rps >= 0.8 * single.rps ? "MET" : "MISSED"}`);
    if (base) out.push(`embedded ${LABELS[c.scenario]} @${c.connections}: p99 ${c.p99} ms vs baseline ${base.p99} ms (target ≤ 2×): ${c.p99 <= 2 * base.p99 ? "MET" : "MISSED"}`);
  }
  // Clones through the gateway against git http-backend on the same repository (issue 33).
  for (const c of rows.filter((r) => r.scenario === CLONE && r.mode !== GIT_BASELINE && r.ratio_to_baseline !== null))
    out.push(`${c.mode} ${LABELS[CLONE]} @${c.connections}: ${c.rps.toFixed(1)} clones/s, ${c.mbps.toFixed(1)} MB/s, ${c.ratio_to_baseline.toFixed(2)} of ${GIT_BASELINE} (target ≥ 0.7×): ${c.ratio_to_baseline >= 0.7 ? "MET" : "MISSED"}`);
  const errors = rows.reduce((n, r) => n + r.errors, 0);
  out.push(`errors (non-2xx + socket errors + timeouts) over all runs: ${errors} (target 0): ${errors === 0 ? "MET" : "MISSED"}`);
  return out;
}

// ---- main -----------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const loadBefore = os.loadavg();
  const cellSeconds = config.connections.reduce((s, c) => s + durationFor(c) + config.rounds * config.warmup, 0) + Math.max(0, config.firstWarmup - config.warmup);
  const cloneRun = config.scenarios.includes(CLONE);
  log(
    `modes ${config.modes.join(", ")}; ${config.scenarios.length} scenarios; connections ${config.connections.join(", ")}${cloneRun ? ` (clones: ${config.cloneConnections})` : ""}; ` +
      `${config.rounds} rounds; about ${Math.round(((config.scenarios.length - (cloneRun ? 1 : 0)) * config.modes.length * cellSeconds + (cloneRun ? cloneModes().length * (config.cloneDuration + config.firstWarmup + config.warmup) : 0)) / 60)} min of load after setup`,
  );
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    log("npm run build");
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "collab-bench-"));
  fs.chmodSync(workDir, 0o711); // as root the embedded mode's server runs as "postgres", which must reach its folder in here
  cleanups.push(async () => fs.rmSync(workDir, { recursive: true, force: true }));
  fs.mkdirSync(RESULTS, { recursive: true });

  const pg = await startPostgres();
  cleanups.push(pg.stop);
  log(`${pg.version} on ${pg.url}`);

  // The distributed topology first, and always: it creates the scratch database every PostgreSQL
  // mode uses (and drops it when stopped).
  const { startTopology, ROOT_TOKEN } = require(path.join(ROOT, "scripts/topology.js"));
  const servers = {};
  const manifests = {};
  process.env.EXTERNAL_URL = EXTERNAL_URL; // topology.js passes it on
  log("starting the distributed topology (scripts/topology.js)");
  if (config.cpuProf) process.env.TOPOLOGY_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${path.join(RESULTS, "profiles")}`;
  const topology = await startTopology({ databaseServer: pg.url, gateways: 1 });
  cleanups.push(() => topology.stop());
  const processes = topology.nodes.reduce((m, n) => ((m[n.service] = (m[n.service] ?? 0) + 1), m), {});
  log(`topology: nats-server, ${Object.entries(processes).map(([s, n]) => (n > 1 ? `${s} ×${n}` : s)).join(", ")}`);
  if (config.modes.includes("distributed"))
    servers.distributed = { url: topology.gatewayUrl, pids: { "nats-server": topology.natsPid, ...Object.fromEntries(topology.nodes.map((n) => [`${n.service}-${n.replica}`, n.pid])) } };
    if (config.cpuProf) log(`distributed profiles (CPU.<date>.<pid>.…): ${topology.nodes.map((n) => `${n.service}-${n.replica} ${n.pid}`).join(", ")}`);
  // Two deployments of the API never share a database: the topology has its own, and the single
  // node and the baselines another (same server), seeded alike (the same instant: same answers).
  // On one database each deployment's relays would deliver the other's events while it is measured.
  const { Client } = require("pg");
  /** Seeds a deployment's database, and the bench project's repository on its storages (`REPOSITORY_STORAGES`). */
  const seeded = async (url, storages) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return await seed(client, { now: seedNow, storages });
    } finally {
      await client.end();
    }
  };
  const seedNow = Date.now(); // both databases seeded as of the same instant
  let t = Date.now();
  const topologyStorages = `default:${path.join(topology.logDir, "repositories-1")},other:${path.join(topology.logDir, "repositories-2")}`;
  const manifest = await seeded(topology.databaseUrl, topologyStorages);
  log(`seeded the topology's database in ${Date.now() - t} ms: ${JSON.stringify(manifest.counts)}`);
  const nodeDatabase = await singleNodeDatabase(pg.url);
  // The single node migrates its database and creates root; then it is seeded.
  servers.single = await startSingle(nodeDatabase, ROOT_TOKEN);
  cleanups.push(servers.single.stop);
  t = Date.now();
  const nodeManifest = await seeded(nodeDatabase, servers.single.storages);
  log(`seeded the single node's database in ${Date.now() - t} ms`);
  for (const [name, databaseUrl, workers] of [
    ["baseline", nodeDatabase, 1],
    ["baseline-workers", nodeDatabase, os.cpus().length],
    ...(config.modes.includes("distributed") ? [["baseline-topology", topology.databaseUrl, 1], ["baseline-workers-topology", topology.databaseUrl, os.cpus().length]] : []),
  ]) {
    servers[name] = await startBaseline(databaseUrl, name, workers);
    cleanups.push(servers[name].stop);
  }
  if (!config.modes.includes("single")) {
    await servers.single.stop();
    delete servers.single;
  }
  for (const m of [...NODE_BASELINES, "single"]) manifests[m] = nodeManifest;
  for (const m of [...TOPOLOGY_BASELINES, "distributed"]) manifests[m] = manifest;
  if (config.modes.includes("embedded")) {
    t = Date.now();
    log("starting the embedded mode (start, stop, seed, start)");
    servers.embedded = await startEmbedded(ROOT_TOKEN);
    cleanups.push(servers.embedded.stop);
    manifests.embedded = servers.embedded.manifest;
    log(`embedded mode ready in ${Date.now() - t} ms`);
  }
  const checks = await checkModes(servers, manifests);
  log(`answers: ${Object.entries(checks).map(([m, c]) => `${m} ${c.ok ? "OK" : "DIFFERENT"} (${c.comparison})`).join(", ")}`);

  // The clone scenario: the same generated history (fixed dates: the same objects) in a project of
  // each deployment, and git http-backend on one of those repositories as its baseline.
  const clones = {};
  if (cloneRun) {
    t = Date.now();
    const deployments = {
      single: servers.single && { url: servers.single.url, databaseUrl: nodeDatabase, storages: servers.single.storages, groupId: nodeManifest.groupId },
      distributed: servers.distributed && {
        url: topology.gatewayUrl,
        databaseUrl: topology.databaseUrl,
        storages: topologyStorages,
        groupId: manifest.groupId,
      },
    };
    for (const [mode, d] of Object.entries(deployments)) if (d) clones[mode] = await prepareCloneRepository({ ...d, rootToken: ROOT_TOKEN });
    const repo = Object.values(clones)[0];
    if (!repo) throw new Error(`the clone scenario needs the single or the distributed mode`);
    if (new Set(Object.values(clones).map((c) => c.head)).size > 1) throw new Error(`the clone repositories differ: ${JSON.stringify(clones)}`);
    const port = await freePort();
    const p = startNode(GIT_BASELINE, path.join(__dirname, "git-baseline-server.js"), serviceEnv({ GIT_PROJECT_ROOT: repo.storageFolder, PORT: String(port) }));
    servers[GIT_BASELINE] = { url: `http://127.0.0.1:${port}`, stop: p.stop, pids: { [GIT_BASELINE]: p.proc.pid } };
    cleanups.push(p.stop);
    await waitFor(GIT_BASELINE, () => ready(servers[GIT_BASELINE].url), 30_000, p.proc);
    clones[GIT_BASELINE] = { ...repo, fullPath: repo.diskPath.replace(/\.git$/, "") };
    log(`clone repositories (${CLONE_COMMITS} commits, head ${repo.head.slice(0, 12)}) in ${Object.keys(clones).join(", ")} in ${Date.now() - t} ms`);
  }

  loader = fork(path.join(__dirname, "load.js"), [], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  cleanups.push(async () => loader.connected && loader.disconnect());

  // PUT runs get disjoint ranges of iids (PostgreSQL modes share one database), away from the
  // notes issue and the newest issues (the first page of the list).
  const putRuns = config.modes.length * config.connections.length * config.rounds;
  const putSpan = Math.floor((manifest.mainIssues - 500) / putRuns);
  let putNext = 200;

  // Every mode answers each read for a while before anything is measured: a process's first
  // seconds (JIT, pool connections opening, each connection preparing its statements) would
  // otherwise fall into the first scenario's first round, and hit the modes with more processes
  // and statements hardest. Reads only: the writes' data stays as seeded.
  const jobFor = (mode, scenario, connections, warmupSeconds, durationSeconds, tag) => {
    const m = manifests[mode] ?? manifests.single ?? manifests.distributed;
    return {
      scenario,
      url: servers[mode].url,
      connections,
      warmupSeconds,
      durationSeconds,
      tokens: m.users.map((u) => u.token),
      projectId: m.projectId,
      notesIid: m.notesIid,
      assigneeId: m.assigneeId,
      milestoneId: m.milestoneId,
      tag,
      ...(scenario === CLONE ? { clone: clones[mode], tokens: mode === GIT_BASELINE ? [] : m.users.map((u) => u.token) } : {}),
    };
  };
  if (config.prime > 0) {
    log(`priming: ${config.prime} s of each read scenario on every mode`);
    for (const mode of config.modes)
      for (const scenario of SCENARIOS.filter((x) => x.startsWith("GET")))
        await measure(jobFor(mode, scenario, Math.max(...config.connections), 0, config.prime, `${mode}-prime`));
  }
  const cpuSources = { postgres: () => postgresCpuMs(pg.postmasterPid()), load: () => cpuMs(loader.pid) };

  const raw = [];
  /** "mode scenario" of the runs so far (the first gets the longer warm-up). */
  const warmedUp = new Set();
  const loadSince = Date.now();
  for (const [si, scenario] of config.scenarios.entries()) {
    const modes = modesOf(scenario);
    for (const connections of connectionsOf(scenario)) {
      const seconds = durationFor(connections, scenario) / config.rounds;
      for (let round = 0; round < config.rounds; round++) {
        const shift = (si + round) % modes.length;
        const order = [...modes.slice(shift), ...modes.slice(0, shift)];
        for (const mode of order) {
          const first = !warmedUp.has(`${mode} ${scenario}`);
          warmedUp.add(`${mode} ${scenario}`);
          const job = jobFor(mode, scenario, connections, first ? Math.max(config.warmup, config.firstWarmup) : config.warmup, seconds, `${mode}-${connections}-${round + 1}`);
          if (scenario.startsWith("PUT")) {
            job.put = { first: putNext, count: putSpan, closedIids: manifests[mode].closedIids.filter((i) => i >= putNext && i < putNext + putSpan) };
            putNext += putSpan;
          }
          const waited = await settle();
          if (waited > 3_000) log(`waited ${Math.round(waited / 1000)} s for the machine to settle (events of the last writes)`);
          let cpuBefore = null;
          const result = await measure(job, () => (cpuBefore = cpuSnapshot(servers[mode], cpuSources)));
          result.cpuMsPerRequest = cpuBefore ? cpuPerRequest(cpuBefore, cpuSnapshot(servers[mode], cpuSources), result.requests) : {};
          result.memory = memoryOf(servers[mode]);
          raw.push({ scenario, mode, connections, round: round + 1, result });
          const errors = result.non2xx + result.socketErrors + result.timeouts;
          log(
            `${LABELS[scenario]} ${mode} c=${connections} r${round + 1}: ${result.rps.toFixed(0)} req/s p50 ${result.p50} p90 ${result.p90} p99 ${result.p99} ms` +
              `${errors ? ` ERRORS ${errors} ${JSON.stringify(result.statusCodes)}` : ""} (${Math.round(result.bytesPerRequest)} B/resp${result.mbPerSecond === undefined ? "" : `, ${result.mbPerSecond.toFixed(1)} MB/s`})`,
          );
        }
      }
    }
  }

  const rows = aggregate(raw);
  const memory = Object.fromEntries(Object.entries(servers).map(([mode, server]) => [mode, memoryOf(server)]));
  const results = rows.map((r) => ({
    scenario: LABELS[r.scenario],
    mode: r.mode,
    connections: r.connections,
    rps: Math.round(r.rps * 10) / 10,
    p50: r.p50,
    p90: r.p90,
    p99: r.p99,
    errors: r.errors,
    ratio_to_baseline: r.ratio_to_baseline === null ? null : Math.round(r.ratio_to_baseline * 1000) / 1000,
    rss_mb: r.rss_mb,
    cpu_ms_per_request: r.cpu.total,
    ...(r.mbps === undefined ? {} : { mb_per_s: Math.round(r.mbps * 10) / 10 }),
  }));
  fs.writeFileSync(path.join(RESULTS, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(
    path.join(RESULTS, "latest-details.json"),
    `${JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavgBefore: loadBefore, loadavgAfter: os.loadavg() }, postgres: pg.version, config, dataset: manifest.counts, checks, memory, raw }, null, 2)}\n`,
  );

  process.stdout.write(`\n${table(rows)}\n\n`);
  for (const [mode, m] of Object.entries(memory))
    process.stdout.write(`RSS ${mode}: ${m.total} MiB (${Object.entries(m.processes).map(([p, v]) => `${p} ${v}`).join(", ")})\n`);
  process.stdout.write("\nCPU ms per request (the mode's processes, PostgreSQL and the load generator) at 32 connections:\n");
  for (const r of rows.filter((x) => x.connections === 32))
    process.stdout.write(`${LABELS[r.scenario]} ${r.mode}: ${r.cpu.total} (${Object.entries(r.cpu.processes).sort((a, b) => b[1] - a[1]).map(([p, v]) => `${p} ${v}`).join(", ")})\n`);
  process.stdout.write("\n");
  for (const line of targets(rows)) process.stdout.write(`${line}\n`);
  process.stdout.write(
    `\nlatency in ms; req/s = requests / measured seconds over ${config.rounds} round(s), percentiles = median over rounds; ` +
      `load ${Math.round((Date.now() - loadSince) / 1000)} s, total ${Math.round((Date.now() - started) / 1000)} s; ` +
      `machine: ${os.cpus().length} cores, load average ${loadBefore[0].toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after\n` +
      `results: ${path.relative(ROOT, path.join(RESULTS, "latest.json"))} (raw runs: bench/results/latest-details.json)\n`,
  );
}

let exiting = false;
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => {
    if (exiting) return;
    exiting = true;
    log(`${signal}: stopping`);
    cleanup().finally(() => process.exit(130));
  });

main()
  .then(cleanup, async (err) => {
    log(`failed: ${err.stack ?? err}`);
    if (workDir) for (const f of fs.readdirSync(workDir).filter((x) => x.endsWith(".log"))) log(`log ${f}:\n${fs.readFileSync(path.join(workDir, f), "utf8").split("\n").slice(-15).join("\n")}`);
    await cleanup();
    process.exitCode = 1;
  })
  .then(() => process.exit(process.exitCode ?? 0));
