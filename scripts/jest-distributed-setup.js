// globalSetup of the distributed pass: starts the topology and hands its addresses to the test
// workers through the environment (workers are spawned after this runs, and inherit it).
"use strict";
const fs = require("node:fs");
const { startTopology } = require("./topology");

module.exports = async function setup() {
  const topology = await startTopology();
  globalThis.__COLLAB_TOPOLOGY__ = topology;
  process.env.TEST_GATEWAY_URL = topology.gatewayUrl;
  process.env.TEST_TRANSPORTER = topology.transporter;
  process.env.TEST_TOPOLOGY_DATABASE_URL = topology.databaseUrl;
  process.env.TEST_TOPOLOGY_NODES = JSON.stringify(topology.nodes);
  process.env.TEST_TOPOLOGY_LOG_DIR = topology.logDir;
  fs.writeFileSync(`${topology.logDir}/topology.json`, JSON.stringify(topology.nodes));
};
