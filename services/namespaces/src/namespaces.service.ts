import { settingsMixin } from "@collab/core";
import { flushingAccess, flushingAccessAfterEvents } from "./members/access-flush";
import { consumersOf, defineService } from "@collab/db";
import { outbox, processedEvents } from "./db/schema";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { deletionActions, deletionBusActions } from "./deletion/deletion.actions";
import { activityAnalyticsActions } from "./groups/activity-analytics.actions";
import { purgeWorker } from "./deletion/purge.worker";
import { groupTreeActions } from "./groups/group-tree.actions";
import { groupsActions } from "./groups/groups.actions";
import { invitationsActions } from "./invitations/invitations.actions";
import { labelLookupActions } from "./labels/label-lookups.actions";
import { labelsActions } from "./labels/labels.actions";
import { accessActions } from "./members/access.actions";
import { batchLookupActions } from "./members/batch-lookups.actions";
import { billableMembersActions } from "./members/billable-members.actions";
import { membersActions } from "./members/members.actions";
import { milestoneLookupActions } from "./milestones/milestone-lookups.actions";
import { milestonesActions } from "./milestones/milestones.actions";
import { projectBatchActions } from "./projects/project-batches.actions";
import { projectsActions } from "./projects/projects.actions";
import { provisioningActions } from "./provisioning/provisioning.actions";
import { commitsBusActions } from "./refs/commits.actions";
import { protectedBranchesActions, protectedBranchesBusActions } from "./protected-branches/protected-branches.actions";
import { storageActions } from "./storage/storage.actions";
import { accountsSubscriptions } from "./user-namespaces/accounts.consumers";
import { repositoriesSubscriptions } from "./projects/repositories.consumers";
import { userNamespacesActions } from "./user-namespaces/user-namespaces.actions";
import { workItemInputActions } from "./work-items/work-item-input.actions";
import { workItemRefActions } from "./work-items/work-item-refs.actions";

/** One Moleculer service, `namespaces`, composed of its subdomains' actions, events and workers. */
export const namespacesService: ServiceSchema = defineService({
  name: "namespaces",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts"],
  mixins: [settingsMixin],
  workers: (kit) => [purgeWorker(kit)],
  eventTables: { outbox, processedEvents },
  consumes: (kit) => flushingAccessAfterEvents(kit, consumersOf("namespaces", [...accountsSubscriptions(kit), ...repositoriesSubscriptions()])),
  actions: (kit) =>
    flushingAccess([
      groupsActions(kit),
      activityAnalyticsActions(kit),
      groupTreeActions(kit),
      projectsActions(kit),
      projectBatchActions(kit),
      deletionActions(kit),
      deletionBusActions(kit),
      membersActions(kit),
      billableMembersActions(kit),
      invitationsActions(kit),
      accessActions(kit),
      workItemRefActions(kit),
      workItemInputActions(kit),
      batchLookupActions(kit),
      provisioningActions(kit),
      userNamespacesActions(kit),
      labelsActions(kit),
      labelLookupActions(kit),
      milestonesActions(kit),
      milestoneLookupActions(kit),
      commitsBusActions(kit),
      protectedBranchesActions(kit),
      protectedBranchesBusActions(kit),
      storageActions(kit),
    ]),
});
