import { actionsOf } from "@collab/core";
import { accessCacheHolder, userRefsHolder, workItemRefsHolder } from "@collab/work-items";
import { analyticsActions } from "./analytics.actions";
import { defineService } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { awardEmojiActions, notesActions, participantsActions, timeTrackingActions } from "@collab/notes";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { issuesActions } from "./issues.actions";
import { epicsActions } from "./epics/epics.actions";
import { epicLinksActions } from "./epics/epic-links.actions";
import { epicIssuesActions } from "./epics/epic-issues.actions";
import { mergeRequestLinksActions } from "./merge-request-links.actions";
import { issueLinksActions } from "./issue-links/issue-links.actions";
import { namespacesConsumers } from "./namespaces.events";
import { outbox, processedEvents } from "./db/schema";
import { issueNotes } from "./notes.kind";
import { epicNotes } from "./epics/epic-notes.kind";
import { issueAwards, issueTimeTracking } from "./reactions-and-time.kind";

/**
 * Issues and the conversation on them: notes, discussions and resource state events; and the
 * epics of groups (Premium and Ultimate) with theirs. Follows the
 * deletion of projects, labels and milestones in namespaces (namespaces.events.ts).
 */
export const issuesService: ServiceSchema = defineService({
  name: "issues",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: (kit) => [issuesActions(kit), epicsActions(kit), epicLinksActions(kit), epicIssuesActions(kit), analyticsActions(kit), issueLinksActions(kit), notesActions(kit, issueNotes, Issues), participantsActions(kit, issueNotes, Issues.participants), notesActions(kit, epicNotes, Issues.epicNotes), awardEmojiActions(kit, issueAwards, Issues.awardEmoji), timeTrackingActions(kit, issueTimeTracking, Issues.timeTracking), mergeRequestLinksActions(kit), actionsOf("issues", [accessCacheHolder(Issues.accessCache.flush), userRefsHolder(Issues.userRefs.flush), workItemRefsHolder(Issues.workItemRefs.flush)])],
  eventTables: { outbox, processedEvents },
  consumes: (kit) => namespacesConsumers(() => kit.broker),
});
