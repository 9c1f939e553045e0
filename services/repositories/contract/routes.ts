import type { RouteDef } from "@collab/core";
import { RefsActions as Refs } from "./refs";

/**
 * The repository API under /api/v4 (GitLab's lib/api/branches.rb, tags.rb, commits.rb,
 * repositories.rb, files.rb): each action runs on the replica serving the project's storage,
 * which the service's own routing takes care of (a call landing elsewhere is forwarded).
 * git's HTTP transport is not here: the gateway's git module mounts it outside /api/v4.
 */
const R = "/projects/:id/repository";

/** Branches and tags (GitLab's branches.rb, tags.rb). */
export const refsRoutes: RouteDef[] = [
  { method: "GET", path: `${R}/branches`, action: Refs.listBranches.name, auth: "optional" },
  { method: "POST", path: `${R}/branches`, action: Refs.createBranch.name },
  { method: "GET", path: `${R}/branches/:branch`, action: Refs.getBranch.name, auth: "optional" },
  { method: "DELETE", path: `${R}/branches/:branch`, action: Refs.deleteBranch.name },
  { method: "DELETE", path: `${R}/merged_branches`, action: Refs.deleteMergedBranches.name, status: 202 },
  { method: "GET", path: `${R}/tags`, action: Refs.listTags.name, auth: "optional" },
  { method: "POST", path: `${R}/tags`, action: Refs.createTag.name },
  { method: "GET", path: `${R}/tags/:tag_name`, action: Refs.getTag.name, auth: "optional" },
  { method: "DELETE", path: `${R}/tags/:tag_name`, action: Refs.deleteTag.name },
];

export const routes: RouteDef[] = [...refsRoutes];
