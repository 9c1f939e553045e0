// A throw-away PostgreSQL server for the benchmark, started like scripts/test.sh does: initdb in a
// temp folder (as the postgres user when we are root: PostgreSQL refuses to run as root), the
// postmaster as our child on 127.0.0.1 at a free port with its socket in the data folder (-k),
// readiness by pg_isready, durability off. stop() kills it and removes the folder.
"use strict";
const { spawn, execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

/** Highest /usr/lib/postgresql/<major>/bin holding initdb, pg_ctl and postgres (Debian's layout). */
function findPgBin() {
  const base = "/usr/lib/postgresql";
  const majors = fs.existsSync(base) ? fs.readdirSync(base).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) {
    const dir = path.join(base, major, "bin");
    if (["initdb", "pg_ctl", "postgres", "pg_isready"].every((b) => fs.existsSync(path.join(dir, b)))) return dir;
  }
  throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql/<version>/bin (apt-get install postgresql)");
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** argv to run a PostgreSQL binary as the server's owner. */
const asOwner = (argv) => (isRoot() ? ["runuser", ["-u", "postgres", "--", ...argv]] : [argv[0], argv.slice(1)]);

async function startPostgres({ settings = {} } = {}) {
  const bin = findPgBin();
  if (isRoot()) {
    try {
      execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
    } catch {
      execFileSync("useradd", ["--system", "--user-group", "--home-dir", "/var/lib/postgresql", "--shell", "/bin/bash", "postgres"]);
    }
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "collab-bench-pg-"));
  if (isRoot()) execFileSync("chown", ["postgres:", root]);
  const data = path.join(root, "data");
  const [cmd, args] = asOwner([path.join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"]);
  const init = spawnSync(cmd, args, { cwd: root, encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);

  const conf = {
    max_connections: 200,
    fsync: "off",
    synchronous_commit: "off",
    full_page_writes: "off",
    shared_buffers: "256MB",
    ...settings,
  };
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const confArgs = Object.entries(conf).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
    const [pcmd, pargs] = asOwner([path.join(bin, "postgres"), "-D", data, "-h", "127.0.0.1", "-p", String(port), "-k", data, ...confArgs]);
    const logFd = fs.openSync(path.join(root, "postgres.log"), "a");
    const proc = spawn(pcmd, pargs, { cwd: root, stdio: ["ignore", logFd, logFd] });
    fs.closeSync(logFd);
    let exited = false;
    proc.once("exit", () => (exited = true));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !exited) {
      const ready = spawnSync(path.join(bin, "pg_isready"), ["-q", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-t", "1"]);
      if (ready.status === 0) {
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        const stop = async () => {
          if (!exited) {
            const [scmd, sargs] = asOwner([path.join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-t", "30", "stop"]);
            spawnSync(scmd, sargs, { cwd: root, stdio: "ignore" });
            const until = Date.now() + 10_000;
            while (!exited && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
            if (!exited) proc.kill("SIGKILL");
          }
          fs.rmSync(root, { recursive: true, force: true });
        };
        // The postmaster's own pid (the spawned process may be a runuser wrapper), for CPU accounting.
        const postmasterPid = () => Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        return { url, port, root, postmasterPid, version: spawnSync(path.join(bin, "postgres"), ["--version"], { encoding: "utf8" }).stdout.trim(), stop };
      }
      await new Promise((r) => setTimeout(r, 100)); // poll interval
    }
    if (!exited) proc.kill("SIGKILL");
    process.stderr.write(`PostgreSQL did not become ready on port ${port} (attempt ${attempt})\n`);
  }
  fs.rmSync(root, { recursive: true, force: true });
  throw new Error("could not start PostgreSQL");
}

module.exports = { startPostgres, freePort };

if (require.main === module) {
  // Handy by hand: starts a server, prints its URL, stops it on Ctrl-C.
  startPostgres().then((pg) => {
    console.log(pg.url);
    const bye = () => pg.stop().then(() => process.exit(0));
    process.once("SIGINT", bye);
    process.once("SIGTERM", bye);
  });
}
