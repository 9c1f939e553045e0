import { mountedRoutes } from "@collab/gateway";

/**
 * The action behind a route of the gateway's table (`POST /projects` → its action's name), for
 * the few tests that call a route's action over the bus itself (bus security, replicas pinned by
 * node): the name comes from the route table, as the gateway's does, never spelled by hand.
 */
export function routeAction(method: string, path: string): string {
  const route = mountedRoutes.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return route.action;
}
