import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { createScratchDatabase } from "@collab/db";
import { eventually, processAlive } from "@collab/testing";

/**
 * Distributed pass (it runs the built dist, which that pass builds): `npm start` with WORKERS=2,
 * the single-node API on every core. Two worker processes answer on one port, each with every
 * service and its own held caches; node:cluster hands each new connection to the next worker, so
 * requests sent on fresh connections one after the other reach both. What one worker changes
 * must hold on the next request through the other: a revoked token, a removed member, the
 * application settings; held display data follows the events; each event is applied once.
 */
const ENTRY = path.join(__dirname, "../../dist/embedded.js");
const ROOT_TOKEN = "glpat-workers-root-token-0001";
/** The distributed pass's bus settings: this API has no NATS, it has its workers' bus. */
const TOPOLOGY_ENV = ["TRANSPORTER", "NATS_USER", "NATS_PASSWORD", "SERVICE_SIGNING_KEY", "SERVICE_KEYS", "CALLER_SIGNING_KEY", "CALLER_KEYS", "NODE_ID", "HEALTH_PORT", "METRICS_PORT"];

let primary: ChildProcess;
let port: number;
let dropDatabase: () => Promise<void>;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port: p } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(p));
    });
    srv.on("error", reject);
  });

interface Answer {
  status: number;
  body: any;
}

/** One API request on a connection of its own (no keep-alive): the cluster hands it to the next worker. */
const fresh = (method: string, route: string, token: string | null, json?: unknown) => onFreshConnection(method, `/api/v4${route}`, token, json);

function onFreshConnection(method: string, urlPath: string, token: string | null, json?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: urlPath,
        agent: false,
        headers: { Connection: "close", ...(token ? { "PRIVATE-TOKEN": token } : {}), ...(body ? { "Content-Type": "application/json" } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // plain text answer
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The same request on four fresh connections one after the other: two per worker. */
async function everyWorker(method: string, route: string, token: string | null): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < 4; i++) out.push(await fresh(method, route, token));
  return out;
}
const statusesOf = (answers: Answer[]) => answers.map((a) => a.status);

/** The primary's live children: its workers (the database is external here). */
function workerPids(): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === primary.pid && fields[0] !== "Z") out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Both workers answer readiness (several fresh connections in a row all 200). */
async function bothReady() {
  await eventually(
    async () => {
      expect(workerPids()).toHaveLength(2);
      for (let i = 0; i < 4; i++) expect((await onFreshConnection("GET", "/-/readiness", null)).status).toBe(200);
    },
    { timeoutMs: 90_000, intervalMs: 200 },
  );
}

beforeAll(async () => {
  const server = process.env.TEST_TOPOLOGY_DATABASE_URL ?? process.env.TEST_DATABASE_SERVER;
  if (!server) throw new Error("no PostgreSQL server for the workers test (run it in the distributed pass)");
  const scratch = await createScratchDatabase(server, "workers");
  dropDatabase = scratch.drop;
  port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: scratch.url, PORT: String(port), HOST: "127.0.0.1", WORKERS: "2", INITIAL_ROOT_TOKEN: ROOT_TOKEN, SECRETS_KEY: randomBytes(32).toString("base64"), LOG_LEVEL: process.env.WORKERS_TEST_LOGS ? "info" : "warn", NODE_OPTIONS: "" };
  for (const k of TOPOLOGY_ENV) delete env[k];
  primary = spawn(process.execPath, [ENTRY], { env, stdio: ["ignore", process.env.WORKERS_TEST_LOGS ? fs.openSync(process.env.WORKERS_TEST_LOGS, "a") : "ignore", "inherit"] });
  await bothReady();
}, 120_000);

afterAll(async () => {
  if (primary?.exitCode === null) {
    const exited = new Promise((r) => primary.once("exit", r));
    primary.kill("SIGKILL");
    await exited;
  }
  await dropDatabase?.();
});

const root = (method: string, route: string, json?: unknown) => fresh(method, route, ROOT_TOKEN, json);

async function userWithToken(username: string) {
  const user = await root("POST", "/users", { username, name: username, email: `${username}@example.com`, password: "a-long-enough-password-1" });
  expect(user.status).toBe(201);
  const token = await root("POST", `/users/${user.body.id}/personal_access_tokens`, { name: "cli", scopes: ["api"] });
  expect(token.status).toBe(201);
  return { id: user.body.id as number, token: token.body.token as string, tokenId: token.body.id as number };
}

test("WORKERS=2: two worker processes answer on the one port", async () => {
  expect(workerPids()).toHaveLength(2);
  expect(statusesOf(await everyWorker("GET", "/user", ROOT_TOKEN))).toEqual([200, 200, 200, 200]);
});

test("a token revoked through one worker is refused on the next request through every worker", async () => {
  const alice = await userWithToken("alice");
  // Both workers now hold alice's token (a change behind their back would still be served).
  expect(statusesOf(await everyWorker("GET", "/user", alice.token))).toEqual([200, 200, 200, 200]);
  expect((await root("DELETE", `/personal_access_tokens/${alice.tokenId}`)).status).toBe(204);
  expect(statusesOf(await everyWorker("GET", "/user", alice.token))).toEqual([401, 401, 401, 401]);
});

test("a member removed through one worker loses the private project on the next request through every worker", async () => {
  const bob = await userWithToken("bob");
  const project = await root("POST", "/projects", { name: "Secret", visibility: "private" });
  expect(project.status).toBe(201);
  expect((await root("POST", `/projects/${project.body.id}/members`, { user_id: bob.id, access_level: 30 })).status).toBe(201);
  const issues = `/projects/${project.body.id}/issues`;
  expect(statusesOf(await everyWorker("GET", issues, bob.token))).toEqual([200, 200, 200, 200]);
  expect((await root("DELETE", `/projects/${project.body.id}/members/${bob.id}`)).status).toBe(204);
  expect(statusesOf(await everyWorker("GET", issues, bob.token))).toEqual([404, 404, 404, 404]);
});

test("application settings changed through one worker hold in every worker (and rate-limit counters are shared)", async () => {
  expect((await root("PUT", "/application/settings", { projects_api_rate_limit_unauthenticated: 2 })).status).toBe(200);
  // The settings snapshot is broadcast to every worker (on the bus the primary relays, ahead of
  // the connections it hands over next); counters live in PostgreSQL, so the anonymous caller
  // gets two requests in all, not two per worker. A worker still without the limit would let
  // its two through.
  await new Promise((r) => setTimeout(r, 100));
  expect(statusesOf(await everyWorker("GET", "/projects", null))).toEqual([200, 200, 429, 429]);
  expect((await root("PUT", "/application/settings", { projects_api_rate_limit_unauthenticated: 0 })).status).toBe(200);
  await eventually(async () => expect(statusesOf(await everyWorker("GET", "/projects", null))).toEqual([200, 200, 200, 200]));
});

test("a renamed author shows in the issue lists of every worker; the issue's event is applied once", async () => {
  const carol = await userWithToken("carol");
  const project = await root("POST", "/projects", { name: "Open", visibility: "public" });
  expect(project.status).toBe(201);
  const created = await fresh("POST", `/projects/${project.body.id}/issues`, carol.token, { title: "Held names" });
  expect(created.status).toBe(201);
  const authors = async () => (await everyWorker("GET", `/projects/${project.body.id}/issues`, ROOT_TOKEN)).map((a) => a.body[0]?.author?.name);
  expect(await authors()).toEqual(["carol", "carol", "carol", "carol"]);
  expect((await root("PUT", `/users/${carol.id}`, { name: "Carol Renamed" })).status).toBe(200);
  await eventually(async () => expect(await authors()).toEqual(["Carol Renamed", "Carol Renamed", "Carol Renamed", "Carol Renamed"]));
  // One relay pass of one worker takes the issue's event: the activity feed has it once.
  const opened = async () => ((await root("GET", `/projects/${project.body.id}/events`)).body as { action_name: string; target_iid: number }[]).filter((e) => e.action_name === "opened" && e.target_iid === created.body.iid);
  await eventually(async () => expect(await opened()).toHaveLength(1));
  await new Promise((r) => setTimeout(r, 1_500)); // the relays' timers pass again
  expect(await opened()).toHaveLength(1);
});

test("a worker killed mid-traffic: the other answers meanwhile and the primary starts another", async () => {
  const [victim] = workerPids();
  process.kill(victim, "SIGKILL");
  await eventually(() => expect(processAlive(victim)).toBe(false));
  // Every request is answered, by the surviving worker until the new one listens.
  const answers = statusesOf(await everyWorker("GET", "/user", ROOT_TOKEN));
  expect(answers).toEqual([200, 200, 200, 200]);
  await bothReady();
  expect(workerPids()).not.toContain(victim);
});

test("SIGTERM stops the workers and the primary exits 0", async () => {
  const workers = workerPids();
  const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
  primary.kill("SIGTERM");
  expect(await exited).toBe(0);
  for (const pid of workers) expect(processAlive(pid)).toBe(false);
}, 60_000);
