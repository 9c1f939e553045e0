// The benchmark's PostgreSQL: the embedded server `npm start` runs (shared/db's
// startEmbeddedPostgres, from the built dist: run `npm run build` first), in a temp folder, on
// 127.0.0.1 at a free port, with PostgreSQL's default durability (fsync, synchronous commits)
// and room for the distributed topology's pools. stop() stops it and removes the folder.
"use strict";
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

async function startPostgres({ settings = {} } = {}) {
  // Required here, not on load: run.js builds the dist it comes from first.
  const { startEmbeddedPostgres } = require("../shared/db/dist");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "collab-bench-pg-"));
  try {
    const server = await startEmbeddedPostgres({ dir: root, database: "postgres", settings: { max_connections: 200, ...settings } });
    return {
      url: server.url,
      port: server.port,
      root,
      // The postmaster's own pid, for CPU accounting (its backends are its children).
      postmasterPid: () => server.pid,
      version: `PostgreSQL ${server.version}`,
      async stop() {
        await server.stop();
        fs.rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  }
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
