import type { RouteDef } from "@collab/core";
import { IntegrationsActions } from "./actions";

/** The integrations settings API of projects and groups (GitLab's lib/api/integrations.rb) and their webhooks (project_hooks.rb, group_hooks.rb). */
export const routes: RouteDef[] = [
  // GitLab mounts the project routes under the legacy `services` name too (lib/api/integrations.rb).
  ...(["integrations", "services"] as const).flatMap((name): RouteDef[] => [
    { method: "GET", path: `/projects/:id/${name}`, action: IntegrationsActions.project.list.name },
    { method: "GET", path: `/projects/:id/${name}/:slug`, action: IntegrationsActions.project.get.name },
    { method: "PUT", path: `/projects/:id/${name}/:slug`, action: IntegrationsActions.project.setUp.name },
    { method: "DELETE", path: `/projects/:id/${name}/:slug`, action: IntegrationsActions.project.reset.name },
  ]),
  { method: "GET", path: "/groups/:id/integrations", action: IntegrationsActions.group.list.name },
  { method: "GET", path: "/groups/:id/integrations/:slug", action: IntegrationsActions.group.get.name },
  { method: "PUT", path: "/groups/:id/integrations/:slug", action: IntegrationsActions.group.setUp.name },
  { method: "DELETE", path: "/groups/:id/integrations/:slug", action: IntegrationsActions.group.reset.name },
  ...(["project", "group"] as const).flatMap((level): RouteDef[] => {
    const base = `/${level}s/:id/hooks`;
    const a = IntegrationsActions[`${level}Hooks`];
    return [
      { method: "GET", path: base, action: a.list.name },
      { method: "POST", path: base, action: a.create.name },
      { method: "GET", path: `${base}/:hook_id`, action: a.get.name },
      { method: "PUT", path: `${base}/:hook_id`, action: a.update.name },
      { method: "DELETE", path: `${base}/:hook_id`, action: a.delete.name },
      { method: "POST", path: `${base}/:hook_id/test/:trigger`, action: a.test.name },
      { method: "GET", path: `${base}/:hook_id/events`, action: a.events.name },
      { method: "POST", path: `${base}/:hook_id/events/:hook_log_id/resend`, action: a.resend.name },
    ];
  }),
];
