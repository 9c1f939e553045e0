import type { RouteDef } from "@collab/core";
import { PackagesActions as A } from "./actions";

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
  { method: "GET", path: "/projects/:id/packages", action: A.project.list.name, auth: "optional", jobToken: true },
  { method: "GET", path: "/groups/:id/packages", action: A.group.list.name, auth: "optional" },
  { method: "GET", path: "/projects/:id/packages/protection/rules", action: A.protection.list.name },
  { method: "POST", path: "/projects/:id/packages/protection/rules", action: A.protection.create.name },
  { method: "PATCH", path: "/projects/:id/packages/protection/rules/:package_protection_rule_id", action: A.protection.update.name },
  { method: "DELETE", path: "/projects/:id/packages/protection/rules/:package_protection_rule_id", action: A.protection.delete.name },
  { method: "GET", path: "/projects/:id/packages/:package_id", action: A.project.get.name, auth: "optional", jobToken: true },
  { method: "GET", path: "/projects/:id/packages/:package_id/package_files", action: A.files.list.name, auth: "optional", jobToken: true },
  { method: "GET", path: "/projects/:id/packages/:package_id/pipelines", action: A.pipelines.list.name, auth: "optional", jobToken: true },
  { method: "DELETE", path: "/projects/:id/packages/:package_id", action: A.project.delete.name, jobToken: true },
  { method: "DELETE", path: "/projects/:id/packages/:package_id/package_files/:package_file_id", action: A.files.delete.name, jobToken: true },

  // Generic packages
  { method: "PUT", path: "/projects/:id/packages/generic/:package_name/:package_version/*file_name", action: A.generic.upload.name, jobToken: true, deployTokenScopes: WRITE, streamBody: true },
  { method: "GET", path: "/projects/:id/packages/generic/:package_name/:package_version/*file_name", action: A.generic.download.name, auth: "optional", jobToken: true, deployTokenScopes: READ },

  // npm registry of a project
  { method: "GET", path: `${NPM}/-/package/:package_name/dist-tags`, action: A.npm.distTags.list.name, auth: "optional", jobToken: true, deployTokenScopes: READ },
  { method: "PUT", path: `${NPM}/-/package/:package_name/dist-tags/:tag`, action: A.npm.distTags.set.name, jobToken: true, deployTokenScopes: WRITE, streamBody: true, status: 204 },
  { method: "DELETE", path: `${NPM}/-/package/:package_name/dist-tags/:tag`, action: A.npm.distTags.remove.name, jobToken: true, deployTokenScopes: WRITE },
  { method: "GET", path: `${NPM}/*package_name/-/*file_name`, action: A.npm.tarball.name, auth: "optional", jobToken: true, deployTokenScopes: READ },
  { method: "PUT", path: `${NPM}/:package_name`, action: A.npm.publish.name, jobToken: true, deployTokenScopes: WRITE, streamBody: true },
  { method: "GET", path: `${NPM}/:package_name`, action: A.npm.metadata.name, auth: "optional", jobToken: true, deployTokenScopes: READ },
];
