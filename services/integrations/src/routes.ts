import type { RouteDef } from "@collab/core";

const I = "integrations";

export const routes: RouteDef[] = [
  { method: "GET", path: "/projects/:id/integrations", action: `${I}.project.list` },
  { method: "GET", path: "/projects/:id/integrations/:slug", action: `${I}.project.get` },
  { method: "PUT", path: "/projects/:id/integrations/:slug", action: `${I}.project.setUp` },
  { method: "DELETE", path: "/projects/:id/integrations/:slug", action: `${I}.project.reset` },
  { method: "GET", path: "/groups/:id/integrations", action: `${I}.group.list` },
  { method: "GET", path: "/groups/:id/integrations/:slug", action: `${I}.group.get` },
  { method: "PUT", path: "/groups/:id/integrations/:slug", action: `${I}.group.setUp` },
  { method: "DELETE", path: "/groups/:id/integrations/:slug", action: `${I}.group.reset` },
];
