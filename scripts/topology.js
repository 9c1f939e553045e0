// The distributed topology on loopback: nats-server, one process per service (issues twice) on a
// scratch database of a PostgreSQL server, gateway in front, one SECRETS_KEY for all. Used by the distributed jest pass
// (jest.distributed.config.js) and usable by hand:
//   node scripts/topology.js   (Ctrl-C stops everything; TEST_DATABASE_SERVER=postgres://… to use
//                               a server of yours, else a throw-away embedded one is started)
// Services must be built first (npm run build): processes run services/<svc>/dist/main.js.
"use strict";
const { spawn, execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const ROOT_TOKEN = "glpat-root-token-for-tests-0001";
/** Service → replicas. issues runs twice to prove replicas share work and survive a loss. */
const SERVICES = [
  ["accounts", 1],
  ["namespaces", 1],
  ["issues", 2],
  ["merge-requests", 1],
  ["admin", 1],
  ["runners", 2],
  ["integrations", 1],
  ["activity", 1],
  ["import-export", 1],
  ["error-tracking", 1],
  ["snippets", 1],
  // Twice: a file uploaded through one replica must download through the other (packages.dist.test.ts).
  ["packages", 2],
  // Twice, each with a storage of its own (REPOSITORY_STORAGES below): calls about a repository
  // are routed to the replica serving its storage (repositories-routing.dist.test.ts).
  ["repositories", 2],
];

/** The git storages of repositories replica `replica`: `default` on the first, `other` on the second. */
const repositoryStorages = (dir, replica) => `${replica === 1 ? "default" : "other"}:${path.join(dir, `repositories-${replica}`)}`;

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

/** Polls `check` until it resolves truthy; fails after `timeoutMs`. Readiness, never a fixed sleep. */
async function waitFor(what, check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ""}`);
}

const httpOk = async (url) => (await fetch(url)).ok;

function natsBinary() {
  for (const candidate of ["nats-server", "/usr/sbin/nats-server", "/usr/bin/nats-server"]) {
    try {
      execFileSync(candidate, ["--version"], { stdio: "ignore" });
      return candidate;
    } catch {}
  }
  if (process.getuid && process.getuid() === 0) {
    execFileSync("bash", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server"], { stdio: "inherit" });
    return "nats-server";
  }
  throw new Error("nats-server is not installed and installing it needs root (apt-get install nats-server)");
}

/**
 * NATS users of the topology: one per service (gateway included) and `client` for tests and tools
 * joining the bus, each with a generated password; nats-server refuses anyone else.
 */
function natsUsers() {
  const names = [...SERVICES.map(([svc]) => svc), "gateway", "client"];
  return Object.fromEntries(names.map((name) => [name, crypto.randomBytes(18).toString("base64url")]));
}

/**
 * The bus's signing keys (shared/core/src/bus-auth.ts): the services' (every process signs its
 * service identity with it) and the gateway's (caller assertions), Ed25519, generated per topology.
 */
function busKeys() {
  const pair = () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
    return { private: privateKey.export({ type: "pkcs8", format: "der" }).toString("base64"), public: publicKey.export({ type: "spki", format: "der" }).toString("base64") };
  };
  return { service: pair(), caller: pair() };
}

async function startNats(dir, users) {
  const port = await freePort();
  const monitor = await freePort();
  const conf = path.join(dir, "nats.conf");
  // The payload limit is raised above the gateway's request body limit (5 MB), as in deploy/.
  // JetStream keeps the durable domain events in files under the topology folder, so a restarted
  // nats-server (same config, same port: restartNats) still has them.
  const store = path.join(dir, "nats-store");
  fs.writeFileSync(
    conf,
    `listen: 127.0.0.1:${port}\nhttp: 127.0.0.1:${monitor}\nmax_payload: 8MB\nmax_pending: 64MB\njetstream {\n  store_dir: "${store}"\n  max_memory_store: 64MB\n  max_file_store: 1GB\n}\n` +
      `authorization {\n  users = [\n${Object.entries(users).map(([user, password]) => `    { user: "${user}", password: "${password}" }`).join("\n")}\n  ]\n}\n`,
  );
  const health = `http://127.0.0.1:${monitor}/healthz`;
  const proc = spawnNats(conf);
  await waitFor("nats-server", () => httpOk(health), 20_000);
  return { proc, url: `nats://127.0.0.1:${port}`, conf, health };
}

const spawnNats = (conf) => spawn(natsBinary(), ["-c", conf], { stdio: ["ignore", "ignore", "pipe"] });

/**
 * For tests that take parts of a running topology down and up again (durable events): the
 * nats-server restarted on its config, or a service replica started anew with its environment.
 * Processes started here are recorded in the topology folder, and the topology's stop ends them.
 */
function topologyControl(logDir) {
  const control = JSON.parse(fs.readFileSync(path.join(logDir, "control.json"), "utf8"));
  const record = (pid) => fs.appendFileSync(path.join(logDir, "extra-pids"), `${pid}\n`);
  const pidsFile = path.join(logDir, "pids.json");
  const pids = () => JSON.parse(fs.readFileSync(pidsFile, "utf8"));
  return {
    /** The pid of `service` replica `replica` now: tests that stop and restart nodes change it. */
    pidOf(service, replica) {
      return pids()[`${service}-${replica}`];
    },
    async restartNats() {
      const old = Number(fs.readFileSync(path.join(logDir, "nats.pid"), "utf8"));
      await stopPid(old);
      const proc = spawnNats(control.nats.conf);
      proc.unref();
      fs.writeFileSync(path.join(logDir, "nats.pid"), String(proc.pid));
      record(proc.pid);
      await waitFor("nats-server", () => httpOk(control.nats.health), 20_000);
    },
    /**
     * Starts `service` replica `replica` again (after its process was stopped); answers its pid
     * once ready, or at once with `{ ready: false }` (its probes are then on healthUrl()).
     */
    async startNode(service, replica, { ready = true } = {}) {
      const env = control.env[`${service}-${replica}`];
      const proc = startProcess(service, replica, env, logDir);
      proc.unref();
      record(proc.pid);
      fs.writeFileSync(pidsFile, JSON.stringify({ ...pids(), [`${service}-${replica}`]: proc.pid }));
      if (ready) await waitFor(`${service}-${replica} readiness`, () => httpOk(`http://127.0.0.1:${env.HEALTH_PORT}/-/readiness`));
      return proc.pid;
    },
    /** Base URL of a service replica's probes (/-/readiness). */
    healthUrl(service, replica) {
      return `http://127.0.0.1:${control.env[`${service}-${replica}`].HEALTH_PORT}`;
    },
    stopPid,
  };
}

/** SIGTERM, then SIGKILL after 15 s; resolves once the process is gone. */
async function stopPid(pid) {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        return;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function createDatabase(serverUrl) {
  const { Client } = require("pg");
  const name = `collab_dist_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

function startProcess(svc, replica, env, logDir) {
  const entry = path.join(ROOT, "services", svc, "dist", "main.js");
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  const log = fs.openSync(path.join(logDir, `${svc}-${replica}.log`), "a");
  // TOPOLOGY_NODE_ARGS: node flags for every service process (the benchmark's --cpu-prof).
  const flags = (process.env.TOPOLOGY_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const proc = spawn(process.execPath, [...flags, entry], { env, stdio: ["ignore", log, log] });
  return proc;
}

/**
 * Starts everything; returns the topology description and a stop function. `databaseProxy`: the
 * services reach PostgreSQL through scripts/db-proxy.js, whose control URL the answer carries
 * (fault tests freeze their connections); the answer's databaseUrl stays direct. `env`: more
 * environment for every process.
 */
/**
 * `gateways`: gateway replicas, each on its own port (two by default: the identity each holds
 * must be flushed on both, see identity-at-the-edge.dist.test.ts); `gatewayUrl` is the first's.
 */
async function startTopology({ databaseServer = process.env.TEST_DATABASE_SERVER, databaseProxy = false, env: extraEnv = {}, gateways = 2 } = {}) {
  if (!databaseServer) throw new Error("TEST_DATABASE_SERVER (a PostgreSQL server URL) is required");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "collab-topology-"));
  const users = natsUsers();
  const keys = busKeys();
  const nats = await startNats(dir, users);
  const database = await createDatabase(databaseServer);
  const proxy = databaseProxy ? await require("./db-proxy").startDbProxy(database.url) : undefined;
  // The key every process seals stored credentials with (the caller's, else a fresh one); the
  // answer carries it for tests that read the database.
  const secretsKey = process.env.SECRETS_KEY || crypto.randomBytes(32).toString("base64");
  // The caller's environment goes along: e.g. SMTP_URL, the mail receiver of the distributed pass.
  const common = {
    ...process.env,
    SECRETS_KEY: secretsKey,
    TRANSPORTER: nats.url,
    SERVICE_SIGNING_KEY: keys.service.private,
    CALLER_KEYS: keys.caller.public,
    DATABASE_URL: proxy?.url ?? database.url,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    EXTERNAL_URL: process.env.EXTERNAL_URL ?? "http://collab.test",
    LOG_LEVEL: process.env.TOPOLOGY_LOG_LEVEL ?? "warn",
    PG_POOL_MAX: "5",
    PASSWORD_HASH_COST: "1024",
    NODE_OPTIONS: "",
    // The package tests upload files of a few MiB: a small generic limit lets them check refusals,
    // and the destruction worker runs when they tick it (packages.destruction.tick).
    PACKAGES_GENERIC_MAX_FILE_SIZE: process.env.PACKAGES_GENERIC_MAX_FILE_SIZE ?? String(8 * 1024 * 1024),
    PACKAGES_DESTRUCTION_TICK_MS: process.env.PACKAGES_DESTRUCTION_TICK_MS ?? "0",
    ...extraEnv,
  };
  const nodes = [];
  /**
   * (Re)starts a node on fresh ports. A port found free can be taken by another process before the
   * child binds it (other test runs on a busy machine), so a node that exits before it is ready is
   * started again, its log shown, up to twice.
   */
  async function launch(n) {
    n.port = await freePort();
    const env =
      n.service === "gateway"
        ? { ...common, NODE_ID: `gateway-${n.replica}`, PORT: String(n.port), HOST: "127.0.0.1", NATS_USER: "gateway", NATS_PASSWORD: users.gateway, CALLER_SIGNING_KEY: keys.caller.private }
        : {
            ...common,
            NODE_ID: `${n.service}-${n.replica}`,
            HEALTH_PORT: String(n.port),
            NATS_USER: n.service,
            NATS_PASSWORD: users[n.service],
            ...(n.service === "repositories" ? { REPOSITORY_STORAGES: repositoryStorages(dir, n.replica) } : {}),
          };
    n.exited = undefined;
    n.env = env;
    n.proc = startProcess(n.service, n.replica, env, dir);
    n.proc.once("exit", (code, signal) => (n.exited = { code, signal }));
  }
  async function ready(n) {
    const what = `${n.service}-${n.replica}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await waitFor(`${what} readiness`, () => {
          if (n.exited) throw new Error(`exited ${JSON.stringify(n.exited)}; see ${dir}/${what}.log`);
          return httpOk(`http://127.0.0.1:${n.port}/-/readiness`);
        });
      } catch (err) {
        if (!n.exited || attempt > 2) throw err;
        const log = fs.readFileSync(path.join(dir, `${what}.log`), "utf8").split("\n").slice(-15).join("\n");
        console.error(`topology: ${what} exited before it was ready (${JSON.stringify(n.exited)}); starting it again. Its log:\n${log}`);
        await launch(n);
      }
    }
  }
  // accounts first: it bootstraps root; the others can start together (migrations run under advisory locks).
  for (const [svc, replicas] of SERVICES) {
    for (let i = 1; i <= replicas; i++) {
      const n = { service: svc, replica: i };
      await launch(n);
      nodes.push(n);
    }
  }
  const gatewayNodes = [];
  for (let i = 1; i <= gateways; i++) {
    const gateway = { service: "gateway", replica: i };
    await launch(gateway);
    nodes.push(gateway);
    gatewayNodes.push(gateway);
  }
  try {
    for (const n of nodes) await ready(n);
  } catch (err) {
    await stop();
    throw err;
  }

  fs.writeFileSync(path.join(dir, "nats.pid"), String(nats.proc.pid));
  fs.writeFileSync(path.join(dir, "pids.json"), JSON.stringify(Object.fromEntries(nodes.map((n) => [`${n.service}-${n.replica}`, n.proc.pid]))));
  fs.writeFileSync(
    path.join(dir, "control.json"),
    JSON.stringify({ nats: { conf: nats.conf, health: nats.health }, env: Object.fromEntries(nodes.map((n) => [`${n.service}-${n.replica}`, n.env])) }),
  );

  async function stop() {
    const extra = fs.existsSync(path.join(dir, "extra-pids")) ? fs.readFileSync(path.join(dir, "extra-pids"), "utf8").split("\n").filter(Boolean).map(Number) : [];
    await Promise.all(extra.map(stopPid));
    await Promise.all(
      nodes.map(
        (n) =>
          new Promise((resolve) => {
            if (n.exited || n.proc.exitCode !== null) return resolve();
            const timer = setTimeout(() => n.proc.kill("SIGKILL"), 15_000);
            n.proc.once("exit", () => (clearTimeout(timer), resolve()));
            n.proc.kill("SIGTERM");
          }),
      ),
    );
    nats.proc.kill("SIGTERM");
    await proxy?.stop();
    await database.drop().catch(() => undefined);
    if (!process.env.KEEP_TOPOLOGY_LOGS) fs.rmSync(dir, { recursive: true, force: true });
  }

  const gatewayUrls = gatewayNodes.map((g) => `http://127.0.0.1:${g.port}`);
  return {
    gatewayUrl: gatewayUrls[0],
    gatewayUrls,
    transporter: nats.url,
    databaseUrl: database.url,
    databaseProxyControl: proxy?.controlUrl,
    /**
     * What a client joining the bus (a test, a tool) needs: NATS credentials and the service key;
     * `callerSigningKey` too, for tests that sign callers as a gateway would.
     */
    client: { NATS_USER: "client", NATS_PASSWORD: users.client, SERVICE_SIGNING_KEY: keys.service.private, CALLER_KEYS: keys.caller.public },
    callerSigningKey: keys.caller.private,
    secretsKey,
    logDir: dir,
    natsPid: nats.proc.pid,
    nodes: nodes.map((n) => ({ service: n.service, replica: n.replica, pid: n.proc.pid, ...(n.service === "gateway" ? {} : { healthPort: n.port }) })),
    stop,
  };
}

module.exports = { startTopology, topologyControl, ROOT_TOKEN };

if (require.main === module) {
  let database;
  (async () => {
    if (!process.env.TEST_DATABASE_SERVER) {
      database = await require("../shared/db/dist").startTestDatabaseServer();
      process.env.TEST_DATABASE_SERVER = database.url;
    }
    return startTopology();
  })()
    .then((t) => {
      console.log(JSON.stringify({ gatewayUrls: t.gatewayUrls, transporter: t.transporter, logDir: t.logDir, nodes: t.nodes }, null, 2));
      const bye = () => t.stop().then(() => database?.stop()).then(() => process.exit(0));
      process.once("SIGINT", bye);
      process.once("SIGTERM", bye);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
