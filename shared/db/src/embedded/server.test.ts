import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./server";

// The embedded PostgreSQL's life cycle, on real servers in temp folders (durability off: a
// throw-away cluster starts in well under a second).
let dir: string;
const started: EmbeddedPostgres[] = [];
const children: ChildProcess[] = [];

const start = async (opts: { port?: number; durable?: boolean } = {}) => {
  const server = await startEmbeddedPostgres({ dir, durable: false, ...opts });
  started.push(server);
  return server;
};

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** A live process that is neither postgres nor node (its pid stands in for a stranger's). */
function stranger(): ChildProcess {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  children.push(child);
  return child;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "collab-embedded-pg-"));
});

afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
  for (const c of children.splice(0)) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the first start makes the cluster, its password beside it and the database; later starts keep the data", async () => {
  const first = await start();
  expect(first.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/collab$/);
  expect(first.version).toMatch(/^\d+\.\d+$/);
  const password = fs.readFileSync(path.join(dir, "password"), "utf8").trim();
  expect(password.length).toBeGreaterThanOrEqual(24);
  expect(first.url).toContain(encodeURIComponent(password));
  if (process.platform !== "win32") expect(fs.statSync(path.join(dir, "password")).mode & 0o077).toBe(0);
  await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
  // Only with the password: the server listens on loopback with scram-sha-256.
  const wrong = first.url.replace(encodeURIComponent(password), "wrong-password");
  await expect(query(wrong, "SELECT 1")).rejects.toThrow(/password authentication failed/);
  await first.stop();
  expect(fs.existsSync(path.join(dir, "owner.pid"))).toBe(false);

  const second = await start();
  expect(await query(second.url, "SELECT v FROM kept")).toEqual([{ v: "still here" }]);
});

test("a server left running by a process that died is stopped, and this start takes the folder over", async () => {
  const orphan = await start();
  await query(orphan.url, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (1)");
  // As after kill -9 of the process that ran it: the server goes on, its owner is gone.
  const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((r) => gone.once("exit", r));
  fs.writeFileSync(path.join(dir, "owner.pid"), `${gone.pid}\n`);

  const next = await start();
  expect(next.pid).not.toBe(orphan.pid);
  expect(() => process.kill(orphan.pid, 0)).toThrow();
  expect(await query(next.url, "SELECT v FROM kept")).toEqual([{ v: 1 }]);
});

test("a folder whose server's process is alive is refused, and that server is left alone", async () => {
  const running = await start();
  const owner = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(owner);
  fs.writeFileSync(path.join(dir, "owner.pid"), `${owner.pid}\n`);
  await expect(start()).rejects.toThrow(new RegExp(`in use by process ${owner.pid}`));
  expect(await query(running.url, "SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
});

test("after a kill -9 of the server itself the next start recovers its committed data", async () => {
  const crashed = await start({ durable: true }); // npm start's settings: a commit is on disk when it answers
  await query(crashed.url, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)");
  process.kill(crashed.pid, "SIGKILL");
  for (let i = 0; i < 200 && fs.existsSync(`/proc/${crashed.pid}`); i++) await new Promise((r) => setTimeout(r, 10));
  const next = await start();
  expect(await query(next.url, "SELECT v FROM kept")).toEqual([{ v: 42 }]);
});

test("a stale postmaster.pid naming some other live program is cleared", async () => {
  const first = await start();
  await first.stop();
  const other = stranger();
  fs.writeFileSync(path.join(dir, "pgdata", "postmaster.pid"), `${other.pid}\n${path.join(dir, "pgdata")}\n`);
  const next = await start();
  expect(await query(next.url, "SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
  expect(() => process.kill(other.pid!, 0)).not.toThrow(); // left alone
});

test("a fixed port that is taken is refused with its number", async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
  const { port } = blocker.address() as net.AddressInfo;
  try {
    await expect(start({ port })).rejects.toThrow(`port ${port} is taken`);
  } finally {
    blocker.close();
  }
});
