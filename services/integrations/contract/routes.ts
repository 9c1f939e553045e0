import type { RouteDef } from "@collab/core";
import { IntegrationsActions } from "./actions";

/** The integrations settings API of projects and groups (GitLab's lib/api/integrations.rb). */
export const routes: RouteDef[] = [
  { method: "GET", path: "/projects/:id/integrations", action: IntegrationsActions.project.list.name },
  { method: "GET", path: "/projects/:id/integrations/:slug", action: IntegrationsActions.project.get.name },
  { method: "PUT", path: "/projects/:id/integrations/:slug", action: IntegrationsActions.project.setUp.name },
  { method: "DELETE", path: "/projects/:id/integrations/:slug", action: IntegrationsActions.project.reset.name },
  { method: "GET", path: "/groups/:id/integrations", action: IntegrationsActions.group.list.name },
  { method: "GET", path: "/groups/:id/integrations/:slug", action: IntegrationsActions.group.get.name },
  { method: "PUT", path: "/groups/:id/integrations/:slug", action: IntegrationsActions.group.setUp.name },
  { method: "DELETE", path: "/groups/:id/integrations/:slug", action: IntegrationsActions.group.reset.name },
];
