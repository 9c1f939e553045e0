// globalSetup of the distributed pass: starts PostgreSQL (the embedded server, unless
// TEST_DATABASE_SERVER names one) and the topology, and hands their addresses to the test workers
// through the environment (workers are spawned after this runs, and inherit it).
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startMailSink } = require("./mail-sink");
const { startTopology } = require("./topology");

module.exports = async function setup() {
  if (!process.env.TEST_DATABASE_SERVER) {
    // Built by the pass before this runs (scripts/test.sh builds every package).
    const { startTestDatabaseServer } = require("../shared/db/dist");
    const database = await startTestDatabaseServer();
    globalThis.__COLLAB_TEST_PG__ = database;
    process.env.TEST_DATABASE_SERVER = database.url;
  }
  // The services' mail goes to a receiver on loopback; the workers read it from its folder.
  const mail = await startMailSink(fs.mkdtempSync(path.join(os.tmpdir(), "collab-mail-")));
  globalThis.__COLLAB_MAIL__ = mail;
  // Every process checks its actions' answers against their contracts (inherited, as SMTP_URL is).
  process.env.CHECK_ACTION_OUTPUTS ??= "1";
  process.env.SMTP_URL = mail.url; // inherited by every topology process (scripts/topology.js)
  process.env.TEST_MAIL_DIR = mail.dir;
  let topology;
  try {
    // The services reach PostgreSQL through a proxy the fault tests can freeze, with a read
    // timeout short enough that a frozen connection is given up in seconds (production: 35 s).
    // The integration tests tick the delivery worker themselves (integrations.deliveries.tick), as
    // in the one-process pass: a timer's pass could send or drop a delivery between their steps.
    // A failed delivery is retried after 1 s, 2 s, 4 s (10 s, 20 s, 40 s in production): the
    // receiver-outage test waits on those retries.
    topology = await startTopology({
      databaseProxy: true,
      env: { PG_STATEMENT_TIMEOUT_MS: "8000", PG_QUERY_TIMEOUT_MS: "5000", INTEGRATIONS_DELIVERY_TICK_MS: "0", INTEGRATIONS_RETRY_BACKOFF_MS: "1000" },
    });
  } catch (err) {
    await mail.stop();
    await globalThis.__COLLAB_TEST_PG__?.stop();
    throw err;
  }
  globalThis.__COLLAB_TOPOLOGY__ = topology;
  process.env.TEST_GATEWAY_URL = topology.gatewayUrl;
  process.env.TEST_GATEWAY_URLS = topology.gatewayUrls.join(",");
  process.env.TEST_TRANSPORTER = topology.transporter;
  // The test workers join the bus as a client: its NATS user and the service key (bus-auth).
  Object.assign(process.env, topology.client);
  process.env.TEST_CALLER_SIGNING_KEY = topology.callerSigningKey;
  process.env.TEST_TOPOLOGY_DATABASE_URL = topology.databaseUrl;
  process.env.TEST_TOPOLOGY_NODES = JSON.stringify(topology.nodes);
  process.env.TEST_TOPOLOGY_LOG_DIR = topology.logDir;
  process.env.SECRETS_KEY = topology.secretsKey; // the services' key, for tests that read sealed rows
  process.env.TEST_DB_PROXY_CONTROL = topology.databaseProxyControl;
  fs.writeFileSync(`${topology.logDir}/topology.json`, JSON.stringify(topology.nodes));
};
