import type { RouteDef } from "@collab/core";

const N = "namespaces";
const P = "/projects/:id/protected_branches";

/** GitLab's protected branches API (writes and reads for Maintainers and up). */
export const protectedBranchesRoutes: RouteDef[] = [
  { method: "GET", path: P, action: `${N}.protectedBranches.list` },
  { method: "POST", path: P, action: `${N}.protectedBranches.create` },
  { method: "GET", path: `${P}/:name`, action: `${N}.protectedBranches.get` },
  { method: "PATCH", path: `${P}/:name`, action: `${N}.protectedBranches.update` },
  { method: "DELETE", path: `${P}/:name`, action: `${N}.protectedBranches.delete` },
];
