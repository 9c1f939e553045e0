import { call } from "@collab/core";
import { nodesServing, onStorage, Repositories } from "@collab/repositories-contract";
import { startApp } from "@collab/standalone/test/app";
import type { TestApp } from "@collab/testing";

/**
 * Distributed pass only: the two repositories replicas of the topology serve different storages
 * (`default` and `other`, scripts/topology.js), advertise them on the bus, and a call about a
 * repository reaches the replica holding its storage: the other one does not have it on disk.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("repositories-routing");
});
afterAll(() => app.stop());

test("each storage is served by its own replica, and calls are routed there", async () => {
  expect(nodesServing(app.broker, "default")).toEqual(["repositories-1"]);
  expect(nodesServing(app.broker, "other")).toEqual(["repositories-2"]);
  expect(() => onStorage(app.broker, "nowhere")).toThrow(expect.objectContaining({ code: 503 }));

  const ref = { container_kind: "snippet" as const, container_id: 2_000_000_001 };
  const made = await call(app.broker, Repositories.repositories.create, { ...ref, storage: "other" }, onStorage(app.broker, "other"));
  expect(made).toMatchObject({ storage: "other", exists: true });
  // The replica of `default` knows the record but not the folder: it does not serve `other`.
  expect(await call(app.broker, Repositories.repositories.find, ref, { nodeID: "repositories-1" })).toMatchObject({ storage: "other", exists: null });
  expect(await call(app.broker, Repositories.repositories.remove, ref, onStorage(app.broker, "other"))).toEqual({ removed: true });
  expect(await call(app.broker, Repositories.repositories.find, ref, onStorage(app.broker, "other"))).toBeNull();
});
