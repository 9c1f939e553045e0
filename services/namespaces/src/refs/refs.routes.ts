import type { RouteDef } from "@collab/core";

const N = "namespaces";
const R = "/projects/:id/repository";

/** Repository branches and tags. */
export const refsRoutes: RouteDef[] = [
  { method: "GET", path: `${R}/branches`, action: `${N}.refs.list`, auth: "optional", params: { kind: "branch" } },
  { method: "POST", path: `${R}/branches`, action: `${N}.refs.createBranch` },
  { method: "GET", path: `${R}/branches/:branch`, action: `${N}.refs.get`, auth: "optional", params: { kind: "branch" } },
  { method: "DELETE", path: `${R}/branches/:branch`, action: `${N}.refs.delete`, params: { kind: "branch" } },
  { method: "GET", path: `${R}/tags`, action: `${N}.refs.list`, auth: "optional", params: { kind: "tag" } },
  { method: "POST", path: `${R}/tags`, action: `${N}.refs.createTag` },
  { method: "GET", path: `${R}/tags/:tag_name`, action: `${N}.refs.get`, auth: "optional", params: { kind: "tag" } },
  { method: "DELETE", path: `${R}/tags/:tag_name`, action: `${N}.refs.delete`, params: { kind: "tag" } },
  { method: "POST", path: `${R}/commits`, action: `${N}.commits.create` },
];
