// The load generator, in its own process (bench/run.js forks it once and sends it one job per
// measurement over IPC): autocannon's programmatic API, a warm-up run, then the measured run.
//
// Every connection signs in as its own user (round-robin over the seeded users' tokens), so the
// gateway's token cache and the membership queries see many callers, as in real traffic. The
// warm-up and the measured run share the job's counters (PUT keeps alternating across both).
"use strict";
const autocannon = require("autocannon");

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

async function measure(job) {
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
