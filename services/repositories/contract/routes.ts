import type { RouteDef } from "@collab/core";
import { contentRoutes } from "./content";

/**
 * The repository API under /api/v4 (GitLab's lib/api/branches.rb, tags.rb, commits.rb,
 * repositories.rb, files.rb): each action runs on the replica serving the project's storage,
 * which the service's own routing takes care of (a call landing elsewhere is forwarded).
 * git's HTTP transport is not here: the gateway's git module mounts it outside /api/v4.
 */
export const routes: RouteDef[] = [...contentRoutes];
