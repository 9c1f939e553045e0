import type { RouteDef } from "@collab/core";
import { deletionRoutes } from "./deletion/deletion.routes";
import { groupsRoutes } from "./groups/groups.routes";
import { invitationsRoutes, invitationsWebRoutes } from "./invitations/invitations.routes";
import { labelsRoutes } from "./labels/labels.routes";
import { membersRoutes } from "./members/members.routes";
import { milestonesRoutes } from "./milestones/milestones.routes";
import { projectsRoutes } from "./projects/projects.routes";
import { protectedBranchesRoutes } from "./protected-branches/protected-branches.routes";
import { refsRoutes } from "./refs/refs.routes";

/** Every HTTP route of the namespaces service, as the gateway mounts them: each subdomain's list. */
export const routes: RouteDef[] = [
  ...groupsRoutes,
  ...projectsRoutes,
  ...deletionRoutes,
  ...membersRoutes,
  ...invitationsRoutes,
  ...labelsRoutes,
  ...milestonesRoutes,
  ...refsRoutes,
  ...protectedBranchesRoutes,
];

/** Endpoints outside /api/v4 (paths from the server root): the invitation links of mails. */
export const webRoutes: RouteDef[] = [...invitationsWebRoutes];
