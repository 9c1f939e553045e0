import { mountedRoutes, mountedWebRoutes } from "@collab/gateway";
import { domainSchemas } from "./services";

/**
 * Every action other services reach over the bus implements an entry of its service's contract
 * (implement() from @collab/core): there is no bus action a caller could only reach by a string.
 * The actions behind routes are the gateway's to call (their routes name them).
 */
test("every bus action implements its service's contract", () => {
  const routed = new Set([...mountedRoutes, ...mountedWebRoutes].map((r) => r.action));
  const uncontracted: string[] = [];
  for (const schema of domainSchemas()) {
    for (const [key, def] of Object.entries(schema.actions ?? {})) {
      const name = `${schema.name}.${key}`;
      if (!def || routed.has(name)) continue;
      const contract = (def as { contract?: { name: string } }).contract;
      if (contract?.name !== name) uncontracted.push(name);
    }
  }
  expect(uncontracted).toEqual([]);
});
