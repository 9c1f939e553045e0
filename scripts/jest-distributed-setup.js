// globalSetup of the distributed pass: starts the topology and hands its addresses to the test
// workers through the environment (workers are spawned after this runs, and inherit it).
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startMailSink } = require("./mail-sink");
const { startTopology } = require("./topology");

module.exports = async function setup() {
  // The services' mail goes to a receiver on loopback; the workers read it from its folder.
  const mail = await startMailSink(fs.mkdtempSync(path.join(os.tmpdir(), "collab-mail-")));
  globalThis.__COLLAB_MAIL__ = mail;
  process.env.SMTP_URL = mail.url; // inherited by every topology process (scripts/topology.js)
  process.env.TEST_MAIL_DIR = mail.dir;
  let topology;
  try {
    topology = await startTopology();
  } catch (err) {
    await mail.stop();
    throw err;
  }
  globalThis.__COLLAB_TOPOLOGY__ = topology;
  process.env.TEST_GATEWAY_URL = topology.gatewayUrl;
  process.env.TEST_TRANSPORTER = topology.transporter;
  process.env.TEST_TOPOLOGY_DATABASE_URL = topology.databaseUrl;
  process.env.TEST_TOPOLOGY_NODES = JSON.stringify(topology.nodes);
  process.env.TEST_TOPOLOGY_LOG_DIR = topology.logDir;
  fs.writeFileSync(`${topology.logDir}/topology.json`, JSON.stringify(topology.nodes));
};
