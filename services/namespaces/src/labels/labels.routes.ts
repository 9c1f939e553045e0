import type { RouteDef } from "@collab/core";

const N = "namespaces";

/**
 * Labels exist for projects and groups alike; the route fixes the source, and for updates and
 * deletes whether the label is named in the path or (older form) in the params.
 */
function routesFor(source: "projects" | "groups"): RouteDef[] {
  const labels = `/${source}/:id/labels`;
  return [
    { method: "GET", path: labels, action: `${N}.labels.list`, auth: "optional", params: { source } },
    { method: "POST", path: labels, action: `${N}.labels.create`, params: { source } },
    { method: "PUT", path: labels, action: `${N}.labels.update`, params: { source, form: "body" } },
    { method: "DELETE", path: labels, action: `${N}.labels.delete`, params: { source, form: "body" } },
    { method: "GET", path: `${labels}/:label_id`, action: `${N}.labels.get`, auth: "optional", params: { source } },
    { method: "PUT", path: `${labels}/:label_id`, action: `${N}.labels.update`, params: { source, form: "path" } },
    { method: "DELETE", path: `${labels}/:label_id`, action: `${N}.labels.delete`, params: { source, form: "path" } },
  ];
}

export const labelsRoutes: RouteDef[] = [...routesFor("projects"), ...routesFor("groups")];
