import { actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Integrations } from "@collab/integrations-contract";
import type { ActionSchema } from "moleculer";
import { closedKeys, JIRA_SLUG } from "./deliveries/jira";
import { effectiveSettings } from "./domain/settings";

/** GitLab's external issue trackers (Integration's issue_tracker category), by slug. */
export const TRACKER_SLUGS = ["jira", "bugzilla", "clickup", "custom-issue-tracker", "ewm", "phorge", "redmine", "youtrack"];

/** What other services ask of a project's external issue tracker. */
export const trackersActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("integrations", [
    implement(Integrations.trackers.closingReferences, async (ctx) => {
      const { project_id, group_ids, texts } = ctx.params;
      const settings = await effectiveSettings(kit.db, { kind: "project", id: project_id, ancestors: group_ids }, TRACKER_SLUGS);
      const tracker = TRACKER_SLUGS.map((slug) => settings.get(slug)?.source).find((row) => row?.active);
      if (!tracker) return { tracker: null, issues: [] };
      return { tracker: tracker.slug, issues: tracker.slug === JIRA_SLUG ? closedKeys(tracker.properties, texts) : [] };
    }),
  ]);
