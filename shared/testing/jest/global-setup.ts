// jest's globalSetup (jest.config.js): one PostgreSQL for the whole run, unless TEST_DATABASE_SERVER
// names one already. Workers start after this and inherit the environment; each test file then
// makes its own scratch database on it. Relative import: jest's module mapping does not apply here.
import { startTestDatabaseServer } from "../../db/src/testing";

export default async function globalSetup(): Promise<void> {
  // Every action's answer is checked against its contract (@collab/core OutputCheckMiddleware).
  process.env.CHECK_ACTION_OUTPUTS ??= "1";
  if (process.env.TEST_DATABASE_SERVER) return;
  const server = await startTestDatabaseServer();
  (globalThis as { __COLLAB_TEST_PG__?: typeof server }).__COLLAB_TEST_PG__ = server;
  process.env.TEST_DATABASE_SERVER = server.url;
}
