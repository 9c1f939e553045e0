import { actionsOf } from "@collab/core";
import { accessCacheHolder, userRefsHolder, workItemRefsHolder } from "@collab/work-items";
import { analyticsActions } from "./analytics.actions";
import { consumersOf, defineService } from "@collab/db";
import { awardEmojiActions, notesActions, participantsActions, timeTrackingActions } from "@collab/notes";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { closingIssuesActions } from "./closing-issues.actions";
import { closingIssueRoutesActions } from "./closing-issues.routes.actions";
import { mergeRequestsActions } from "./merge-requests.actions";
import { namespacesSubscriptions } from "./namespaces.events";
import { repositoriesSubscriptions } from "./repositories.events";
import { outbox, processedEvents } from "./db/schema";
import { mergeRequestNotes } from "./notes.kind";
import { mergeRequestAwards, mergeRequestTimeTracking } from "./reactions-and-time.kind";
import { commitNotesActions } from "./commits/commit-notes.actions";
import { approvalActions } from "./approvals";
import { MergeRequests } from "@collab/merge-requests-contract";

/**
 * Merge requests and everything hung on them: notes and discussions, resource state events,
 * approvals, approval rules and the project's approval settings. Follows pushes in the
 * repositories (repositories.events.ts), and the deletion of projects, labels and milestones in
 * namespaces (namespaces.events.ts).
 */
export const mergeRequestsService: ServiceSchema = defineService({
  name: "merge-requests",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  // A list of action maps: a name in two of them throws at start.
  actions: (kit) => [
    actionsOf("merge-requests", [accessCacheHolder(MergeRequests.accessCache.flush), userRefsHolder(MergeRequests.userRefs.flush), workItemRefsHolder(MergeRequests.workItemRefs.flush)]),
    mergeRequestsActions(kit),
    closingIssuesActions(kit),
    closingIssueRoutesActions(kit),
    notesActions(kit, mergeRequestNotes, MergeRequests),
    awardEmojiActions(kit, mergeRequestAwards, MergeRequests.awardEmoji),
    timeTrackingActions(kit, mergeRequestTimeTracking, MergeRequests.timeTracking),
    participantsActions(kit, mergeRequestNotes, MergeRequests.participants),
    commitNotesActions(kit),
    approvalActions(kit),
    analyticsActions(kit),
  ],
  eventTables: { outbox, processedEvents },
  consumes: (kit) =>
    consumersOf("merge-requests", [
      ...namespacesSubscriptions(() => kit.broker),
      ...repositoriesSubscriptions(() => kit.broker, (err) => kit.logger.warn({ err: err.message }, "writing merge request refs after a push failed")),
    ]),
});
