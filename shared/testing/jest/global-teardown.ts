// jest's globalTeardown: stops the PostgreSQL the global setup started, if it started one.
export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { __COLLAB_TEST_PG__?: { stop: () => Promise<void> } };
  await holder.__COLLAB_TEST_PG__?.stop();
  delete holder.__COLLAB_TEST_PG__;
}
