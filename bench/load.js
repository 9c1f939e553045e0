// The load generator, in its own process (bench/run.js forks it once and sends it one job per
// measurement over IPC): autocannon's programmatic API, a warm-up run, then the measured run.
//
// Every connection signs in as its own user (round-robin over the seeded users' tokens), so the
// gateway's token cache and the membership queries see many callers, as in real traffic. The
// warm-up and the measured run share the job's counters (PUT keeps alternating across both).
"use strict";
const autocannon = require("autocannon");
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/**
 * autocannon options for a scenario. Each connection (autocannon "client") gets its user's token
 * once, in setupClient; setupRequest only varies the path or body per request.
 */
function optionsFor(job) {
  const { scenario, projectId, notesIid, put } = job;
  let nextUser = 0;
  const json = scenario.startsWith("POST") ? { "Content-Type": "application/json" } : {};
  const setupClient = (client) => client.setHeaders({ "PRIVATE-TOKEN": job.tokens[nextUser++ % job.tokens.length], ...json });
  const get = (path) => ({ setupClient, requests: [{ method: "GET", path }] });
  switch (scenario) {
    case "GET /projects/:id/issues":
      return get(`/api/v4/projects/${projectId}/issues?per_page=20`);
    case "GET /issues?scope=all":
      return get("/api/v4/issues?scope=all");
    case "GET /projects/:id/merge_requests":
      return get(`/api/v4/projects/${projectId}/merge_requests?per_page=20`);
    case "GET /projects/:id/issues/:iid/notes":
      return get(`/api/v4/projects/${projectId}/issues/${notesIid}/notes`);
    case "POST /projects/:id/issues": {
      let n = 0;
      const body = () =>
        JSON.stringify({
          title: `Benchmark issue ${job.tag}-${++n}`,
          description: "Created by the benchmark.\n\n- [ ] reproduce\n- [ ] fix",
          labels: "bug,priority::2",
          assignee_ids: [job.assigneeId],
          milestone_id: job.milestoneId,
        });
      return { setupClient, requests: [{ method: "POST", path: `/api/v4/projects/${projectId}/issues`, setupRequest: (req) => ({ ...req, body: body() }) }] };
    }
    case "PUT /projects/:id/issues/:iid": {
      // Issues put.first … put.first+put.count-1 in turn, each time with the event that flips it
      // (close an open one, reopen a closed one), so every request changes state. The state comes
      // from the seed, then from each answer; requests for one iid are put.count apart, so the
      // answer is always back before the next request for it.
      const closed = new Map(put.closedIids.map((iid) => [iid, true]));
      let k = 0;
      const path = () => {
        const iid = put.first + (k++ % put.count);
        return `/api/v4/projects/${projectId}/issues/${iid}?state_event=${closed.get(iid) ? "reopen" : "close"}`;
      };
      const onResponse = (status, body) => {
        const iid = /"iid":(\d+)/.exec(body)?.[1];
        const state = /"state":"(opened|closed)"/.exec(body)?.[1];
        if (status === 200 && iid && state) closed.set(Number(iid), state === "closed");
      };
      return { setupClient, requests: [{ method: "PUT", path: "/", setupRequest: (req) => ({ ...req, path: path() }), onResponse }] };
    }
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

const run = (opts) =>
  new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on("error", () => undefined);
  });

/**
 * The clone scenario: `connections` clients, each running `git clone --bare --quiet` of the job's
 * repository one after the other until the time is up (an HTTP Basic password: a seeded user's
 * token). Bytes: the pack each clone wrote (what the server sent, less the protocol's framing).
 */
async function cloneRun(job, seconds) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "collab-clone-"));
  const latencies = [];
  let bytes = 0;
  let failed = 0;
  let n = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const client = async (c) => {
    const remote = new URL(`${job.url}/${job.clone.fullPath}.git`);
    if (job.tokens.length) [remote.username, remote.password] = ["bench", job.tokens[c % job.tokens.length]];
    while (performance.now() < deadline) {
      const dir = path.join(tmp, String(++n));
      const t = performance.now();
      const code = await new Promise((resolve) => {
        const git = spawn("git", ["clone", "--bare", "--quiet", remote.toString(), dir], { stdio: "ignore", env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
        git.on("close", resolve);
      });
      if (code !== 0) failed++;
      else {
        latencies.push(performance.now() - t);
        const packs = path.join(dir, "objects", "pack");
        for (const f of fs.readdirSync(packs)) if (f.endsWith(".pack")) bytes += fs.statSync(path.join(packs, f)).size;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  await Promise.all(Array.from({ length: job.connections }, (_, c) => client(c)));
  const duration = (performance.now() - started) / 1000;
  fs.rmSync(tmp, { recursive: true, force: true });
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : 0);
  return {
    requests: latencies.length,
    duration,
    rps: latencies.length / duration,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    non2xx: failed,
    socketErrors: 0,
    timeouts: 0,
    bytesPerRequest: latencies.length ? bytes / latencies.length : 0,
    mbPerSecond: bytes / duration / 1e6,
    statusCodes: {},
  };
}

async function measure(job) {
  if (job.clone) {
    if (job.warmupSeconds > 0) await cloneRun(job, job.warmupSeconds);
    await new Promise((resolve) => process.send({ id: job.id, measuring: true }, resolve));
    return cloneRun(job, job.durationSeconds);
  }
  const base = { url: job.url, connections: job.connections, timeout: 10, pipelining: 1, ...optionsFor(job) };
  if (job.warmupSeconds > 0) await run({ ...base, duration: job.warmupSeconds });
  // bench/run.js reads the processes' CPU counters here and again after the measured run.
  await new Promise((resolve) => process.send({ id: job.id, measuring: true }, resolve));
  const r = await run({ ...base, duration: job.durationSeconds });
  return {
    requests: r.requests.total,
    duration: r.duration,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    socketErrors: r.errors,
    timeouts: r.timeouts,
    bytesPerRequest: r.requests.total ? r.throughput.total / r.requests.total : 0,
    statusCodes: r.statusCodeStats,
  };
}

process.on("message", (job) => {
  measure(job).then(
    (result) => process.send({ id: job.id, result }),
    (err) => process.send({ id: job.id, error: err.stack ?? String(err) }),
  );
});
process.on("disconnect", () => process.exit(0));
