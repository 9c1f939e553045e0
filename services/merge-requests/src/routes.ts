import type { RouteDef } from "@collab/core";
import { routes as contractRoutes } from "@collab/merge-requests-contract";
import { noteRoutes } from "@collab/notes/routes";

/**
 * Merge requests, closing issues and approvals (the contract's route table), and the notes,
 * discussions and state events of merge requests (the shared notes routes, resolvable).
 */
export const routes: RouteDef[] = [...contractRoutes, ...noteRoutes("merge-requests", "/projects/:id/merge_requests/:merge_request_iid", { resolvable: true })];
