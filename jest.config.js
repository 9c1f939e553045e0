/** One jest run, two projects: unit tests beside the code, end-to-end tests through the gateway. */
const fs = require("node:fs");
const path = require("node:path");

// @collab/<pkg>[/sub] → that workspace's TypeScript source, so tests never need a build.
// The whole system's test kit (the test app, fixtures of several services) lives beside the composition root.
const moduleNameMapper = { "^@collab/standalone/test/(.*)$": "<rootDir>/apps/standalone/test/$1" };
for (const dir of ["shared", "services", "apps"]) {
  for (const pkg of fs.readdirSync(path.join(__dirname, dir))) {
    const root = `<rootDir>/${dir}/${pkg}/src`;
    moduleNameMapper[`^@collab/${pkg}$`] = `${root}/index.ts`;
    // A service's contract is its own small package beside src/: services/<svc>/contract, @collab/<svc>-contract.
    moduleNameMapper[`^@collab/${pkg}-contract$`] = `<rootDir>/${dir}/${pkg}/contract/index.ts`;
    moduleNameMapper[`^@collab/${pkg}/(.*)$`] = `${root}/$1`;
  }
}

const common = {
  rootDir: __dirname,
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "commonjs" } }] },
  moduleNameMapper,
  moduleFileExtensions: ["ts", "js", "json"],
};

module.exports = {
  // Global only (jest ignores it per project). An e2e file's beforeAll makes its scratch database,
  // migrates it and starts a broker: seconds with 2 workers on 2 cores, close to jest's 5 s default.
  testTimeout: 30_000,
  // One embedded PostgreSQL for the run (TEST_DATABASE_SERVER); each file makes a scratch database.
  globalSetup: "<rootDir>/shared/testing/jest/global-setup.ts",
  globalTeardown: "<rootDir>/shared/testing/jest/global-teardown.ts",
  projects: [
    { ...common, displayName: "unit", testMatch: ["<rootDir>/{shared,services,apps}/*/src/**/*.test.ts"] },
    {
      ...common,
      displayName: "e2e",
      testMatch: ["<rootDir>/{services,apps}/*/test/**/*.e2e.test.ts"],
      setupFiles: ["<rootDir>/shared/testing/jest/env.ts"],
      slowTestThreshold: 30,
    },
  ],
};
