import type { RouteDef } from "@collab/core";

const P = "packages";
/** Deploy token scopes of the format APIs (GitLab: deploy_token_allowed on generic and npm routes). */
const READ = ["read_package_registry", "write_package_registry"] as const;
const WRITE = ["write_package_registry"] as const;
const NPM = "/projects/:id/packages/npm";

/**
 * The package registry's routes. Project-level package routes accept job tokens (spec,
 * Authentication 3); the generic and npm registries deploy tokens too. Reads are open to anonymous
 * callers (public projects' packages). Uploads stream their bodies (RouteDef.streamBody).
 */
export const routes: RouteDef[] = [
  // Packages API
  { method: "GET", path: "/projects/:id/packages", action: `${P}.project.list`, auth: "optional", jobToken: true },
  { method: "GET", path: "/groups/:id/packages", action: `${P}.group.list`, auth: "optional" },
  { method: "GET", path: "/projects/:id/packages/protection/rules", action: `${P}.protection.list` },
  { method: "POST", path: "/projects/:id/packages/protection/rules", action: `${P}.protection.create` },
  { method: "PATCH", path: "/projects/:id/packages/protection/rules/:package_protection_rule_id", action: `${P}.protection.update` },
  { method: "DELETE", path: "/projects/:id/packages/protection/rules/:package_protection_rule_id", action: `${P}.protection.delete` },
  { method: "GET", path: "/projects/:id/packages/:package_id", action: `${P}.project.get`, auth: "optional", jobToken: true },
  { method: "GET", path: "/projects/:id/packages/:package_id/package_files", action: `${P}.files.list`, auth: "optional", jobToken: true },
  { method: "GET", path: "/projects/:id/packages/:package_id/pipelines", action: `${P}.pipelines.list`, auth: "optional", jobToken: true },
  { method: "DELETE", path: "/projects/:id/packages/:package_id", action: `${P}.project.delete`, jobToken: true },
  { method: "DELETE", path: "/projects/:id/packages/:package_id/package_files/:package_file_id", action: `${P}.files.delete`, jobToken: true },

  // Generic packages
  { method: "PUT", path: "/projects/:id/packages/generic/:package_name/:package_version/*file_name", action: `${P}.generic.upload`, jobToken: true, deployTokenScopes: WRITE, streamBody: true },
  { method: "GET", path: "/projects/:id/packages/generic/:package_name/:package_version/*file_name", action: `${P}.generic.download`, auth: "optional", jobToken: true, deployTokenScopes: READ },

  // npm registry of a project
  { method: "GET", path: `${NPM}/-/package/:package_name/dist-tags`, action: `${P}.npm.distTags.list`, auth: "optional", jobToken: true, deployTokenScopes: READ },
  { method: "PUT", path: `${NPM}/-/package/:package_name/dist-tags/:tag`, action: `${P}.npm.distTags.set`, jobToken: true, deployTokenScopes: WRITE, streamBody: true, status: 204 },
  { method: "DELETE", path: `${NPM}/-/package/:package_name/dist-tags/:tag`, action: `${P}.npm.distTags.remove`, jobToken: true, deployTokenScopes: WRITE },
  { method: "GET", path: `${NPM}/*package_name/-/*file_name`, action: `${P}.npm.tarball`, auth: "optional", jobToken: true, deployTokenScopes: READ },
  { method: "PUT", path: `${NPM}/:package_name`, action: `${P}.npm.publish`, jobToken: true, deployTokenScopes: WRITE, streamBody: true },
  { method: "GET", path: `${NPM}/:package_name`, action: `${P}.npm.metadata`, auth: "optional", jobToken: true, deployTokenScopes: READ },
];
