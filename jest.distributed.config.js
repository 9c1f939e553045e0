/**
 * The distributed pass: the same end-to-end suite, against every service in its own process over
 * a real nats-server and PostgreSQL (scripts/topology.js), plus the tests that only make sense
 * there (*.dist.test.ts: killing a replica mid-burst, the scheduler across replicas…).
 * One worker: all files share the one topology and its database.
 */
const base = require("./jest.config.js");
const e2e = base.projects.find((p) => p.displayName === "e2e");

module.exports = {
  ...e2e,
  displayName: "distributed",
  testMatch: [...e2e.testMatch, "<rootDir>/services/*/test/**/*.dist.test.ts", "<rootDir>/apps/*/test/**/*.dist.test.ts"],
  globalSetup: "<rootDir>/scripts/jest-distributed-setup.js",
  globalTeardown: "<rootDir>/scripts/jest-distributed-teardown.js",
  // *.embedded.e2e.test.ts need the services in the test's own process: another licence tier
  // (configuration fixed for the running topology) or spies on in-process bus calls.
  testPathIgnorePatterns: ["/node_modules/", "\\.embedded\\.e2e\\.test\\.ts$"],
  maxWorkers: 1,
  testTimeout: 60_000,
};
