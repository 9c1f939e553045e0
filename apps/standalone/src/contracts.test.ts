import { contractActions, mountedRoutes, mountedWebRoutes } from "@collab/gateway";
import { domainSchemas } from "./services";

/**
 * Every action of every service implements an entry of its service's contract (implement() from
 * @collab/core), those behind routes too: there is no action a caller could only reach by a string,
 * and the gateway, which knows contracts only, documents each route from the entry it names.
 */
test("every action implements its service's contract", () => {
  const uncontracted: string[] = [];
  for (const schema of domainSchemas()) {
    for (const [key, def] of Object.entries(schema.actions ?? {})) {
      const name = `${schema.name}.${key}`;
      if (!def) continue;
      const contract = (def as { contract?: { name: string } }).contract;
      if (contract?.name !== name) uncontracted.push(name);
    }
  }
  expect(uncontracted).toEqual([]);
});

test("every route names an action some service implements, through an entry the gateway knows", () => {
  const implemented = new Set(domainSchemas().flatMap((s) => Object.keys(s.actions ?? {}).map((key) => `${s.name}.${key}`)));
  const entries = contractActions();
  const routes = [...mountedRoutes, ...mountedWebRoutes].filter((r) => !r.action.startsWith("gateway."));
  expect(routes.filter((r) => !implemented.has(r.action) || !entries.has(r.action)).map((r) => `${r.method} ${r.path} → ${r.action}`)).toEqual([]);
  expect(routes.length).toBeGreaterThan(300);
});
