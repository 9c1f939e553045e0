import type { UserRef } from "@collab/accounts-contract";
import { externalUrl, pickFields, type EventContract } from "@collab/core";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Repositories } from "@collab/repositories-contract";
import { Snippets } from "@collab/snippets-contract";
import { byName, describer, type Described, type Describer } from "./describer";
import { closedKeys, issueKeys, JIRA_SLUG, type JiraMessage, type MentionEntity } from "./jira";
import type { ProjectFacts } from "./targets";

/**
 * The events the Jira integration acts on (GitLab's cross references of Mentionable and the
 * closing of external issues): a merge request's or an issue's title and description, a comment,
 * each commit a push brings (its whole message; the newest 20 of a push, as its event carries), and
 * a merge, or a push to the default branch, that closes issues. Keys are read with the
 * integration's own pattern when the worker builds the message.
 */
const ZERO = "0".repeat(40);

/** The parts of the message that depend on the event only. */
interface Found {
  /** `except`: the texts an edit replaced (keys they held were mentioned before: create_new_cross_references!). */
  mentions: { texts: (string | null | undefined)[]; except?: (string | null | undefined)[]; entity: (project: ProjectFacts) => MentionEntity; gate: JiraMessage["mentions"][number]["gate"] }[];
  closes?: { texts: (string | null | undefined)[]; commitId: string; targetBranch: string }[];
}

/** Jira's deliveries are built from the integration's settings (its key pattern): `build` gets them. */
export type JiraBuild = (project: ProjectFacts, author: string, at: string, user: UserRef | undefined, properties: Record<string, unknown>) => JiraMessage;

function jira(projectId: number, actorId: number, found: Found): Described {
  const build: JiraBuild = (project, author, _at, user, properties) => ({
    mentions: found.mentions.flatMap((m) => {
      const before = new Set(issueKeys(properties, m.except ?? []));
      return issueKeys(properties, m.texts)
        .filter((key) => !before.has(key))
        .map((key) => ({ key, entity: m.entity(project), gate: m.gate }));
    }),
    closes: (found.closes ?? [])
      .filter((c) => c.targetBranch === project.default_branch)
      .flatMap((c) => closedKeys(properties, c.texts).map((key) => ({ key, commitId: c.commitId, commitUrl: `${project.web_url}/-/commit/${c.commitId}` }))),
    user: { name: user?.name ?? author, url: user?.web_url ?? externalUrl() },
    project: { name: project.path_with_namespace, url: project.web_url },
    baseUrl: externalUrl(),
  });
  return { projectId, kind: null, actorId, build: build as Described["build"] };
}

const mergeRequestEntity = (p: { iid: number; title: string; source_branch?: string }) => (project: ProjectFacts): MentionEntity => ({
  name: "merge request",
  url: `${project.web_url}/-/merge_requests/${p.iid}`,
  title: p.title,
  ref: `!${p.iid}`,
  ...(p.source_branch ? { branch: p.source_branch } : {}),
});
const issueEntity = (p: { iid: number; title: string }) => (project: ProjectFacts): MentionEntity => ({ name: "issue", url: `${project.web_url}/-/issues/${p.iid}`, title: p.title, ref: `#${p.iid}` });

/** The new texts of an edit: the title when it changed, the description when it did, less what the description it replaced held. */
const edited = (p: { title: string; changes: string[]; description?: string | null; previous_description?: string | null }) => ({
  texts: [p.changes.includes("title") ? p.title : null, p.changes.includes("description") ? p.description : null],
  except: p.changes.includes("description") ? [p.previous_description] : [],
});

const ME = MergeRequests.events;
const mrFields = pickFields("id", "iid", "project_id", "actor_id", "title", "source_branch", "target_branch", "description");
const mrOpened = describer(ME.mergeRequestOpened, mrFields, (p) => jira(p.project_id, p.actor_id, { mentions: [{ texts: [p.title, p.description], entity: mergeRequestEntity(p), gate: "merge_requests_events" }] }));
const mrUpdated = describer(ME.mergeRequestUpdated, pickFields("id", "iid", "project_id", "actor_id", "title", "source_branch", "changes", "description", "previous_description"), (p) => {
  if (!p.changes.includes("title") && !p.changes.includes("description")) return null;
  return jira(p.project_id, p.actor_id, { mentions: [{ ...edited(p), entity: mergeRequestEntity(p), gate: "merge_requests_events" }] });
});
const mrMerged = describer(ME.mergeRequestMerged, pickFields("id", "iid", "project_id", "actor_id", "title", "target_branch", "description", "sha", "merge_commit_sha"), (p) => {
  const commitId = p.sha ?? p.merge_commit_sha;
  if (!commitId) return null;
  return jira(p.project_id, p.actor_id, { mentions: [], closes: [{ texts: [p.title, p.description], commitId, targetBranch: p.target_branch }] });
});

const issueOpened = describer(Issues.events.issueOpened, pickFields("id", "iid", "project_id", "actor_id", "title", "confidential", "description"), (p) =>
  // A confidential issue's text stays in GitLab.
  p.confidential ? null : jira(p.project_id, p.actor_id, { mentions: [{ texts: [p.title, p.description], entity: issueEntity(p), gate: null }] }),
);
const issueUpdated = describer(Issues.events.issueUpdated, pickFields("id", "iid", "project_id", "actor_id", "title", "confidential", "changes", "description", "previous_description"), (p) =>
  p.confidential || (!p.changes.includes("title") && !p.changes.includes("description")) ? null : jira(p.project_id, p.actor_id, { mentions: [{ ...edited(p), entity: issueEntity(p), gate: null }] }),
);

/** A comment mentions the issue "in" what it is on (Note#local_reference): the merge request, issue, commit or snippet. */
const note = (event: EventContract) =>
  describer(
    event as typeof Issues.events.noteCreated,
    pickFields("id", "noteable_type", "noteable_id", "noteable_iid", "commit_id", "noteable_title", "noteable_confidential", "project_id", "author_id", "body", "internal", "system"),
    (p) => {
      if (p.system || p.internal || p.noteable_confidential || p.project_id === null || p.noteable_title === null) return null;
      const title = p.noteable_title;
      const on: Record<string, { entity: (project: ProjectFacts) => MentionEntity; gate: Found["mentions"][number]["gate"] } | undefined> = {
        Issue: p.noteable_iid === null ? undefined : { entity: issueEntity({ iid: p.noteable_iid, title }), gate: null },
        MergeRequest: p.noteable_iid === null ? undefined : { entity: mergeRequestEntity({ iid: p.noteable_iid, title }), gate: "merge_requests_events" },
        Commit: p.commit_id ? { entity: (project) => ({ name: "commit", url: `${project.web_url}/-/commit/${p.commit_id}`, title, ref: p.commit_id!.slice(0, 8) }), gate: "commit_events" } : undefined,
        Snippet: p.noteable_id === null ? undefined : { entity: (project) => ({ name: "snippet", url: `${project.web_url}/-/snippets/${p.noteable_id}`, title, ref: `$${p.noteable_id}` }), gate: null },
      };
      const target = on[p.noteable_type];
      return target ? jira(p.project_id, p.author_id, { mentions: [{ texts: [p.body], ...target }] }) : null;
    },
  );

/** Each pushed commit's message mentions issues; on the default branch, "Closes PROJ-1" closes them. */
const push = describer(Repositories.events.branchPushed, pickFields("projectId", "branch", "after", "userId", "commits"), (p) => {
  if (p.after === ZERO || !p.commits.length) return null;
  const commitEntity = (c: (typeof p.commits)[number]) => (project: ProjectFacts): MentionEntity => ({ name: "commit", url: `${project.web_url}/-/commit/${c.id}`, title: c.title, ref: c.id.slice(0, 8), branch: p.branch });
  return jira(p.projectId, p.userId, {
    mentions: p.commits.map((c) => ({ texts: [c.message], entity: commitEntity(c), gate: "commit_events" as const })),
    closes: p.commits.map((c) => ({ texts: [c.message], commitId: c.id, targetBranch: p.branch })),
  });
});

export const JIRA_EVENTS: Record<string, Record<string, Describer>> = {
  [JIRA_SLUG]: byName(JIRA_SLUG, [mrOpened, mrUpdated, mrMerged, issueOpened, issueUpdated, note(Issues.events.noteCreated), note(ME.noteCreated), note(Snippets.events.noteCreated), push]),
};
