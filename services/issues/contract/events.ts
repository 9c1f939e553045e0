import { awardEventContracts, ChangeValuesSchema, eventContract, noteEventContracts } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();

/** An issue as its events carry it, and who acted. */
export const IssueEventPayload = () => z.object({ id, iid: id, project_id: id, actor_id: id, title: z.string(), confidential: z.boolean() });

/** An epic as its events carry it, and who acted. */
export const EpicEventPayload = () => z.object({ id, iid: id, group_id: id, actor_id: id, title: z.string(), confidential: z.boolean() });

/**
 * What a to-do needs of a write (the activity service's TodoService): who is newly assigned, and
 * the description, with the one it replaced when it changed, for new mentions.
 */
const TodoFacts = {
  assignee_ids: z.array(id).optional(),
  description: z.string().nullable().optional(),
};

/** Notes on epics: the shared notes' payload with project_id null and group_id set. */
const epicNoteEvents = noteEventContracts("issues", "epic_note");

/** A link between two issues as its events carry it (is_blocked_by stored as the reverse blocks), and who acted. */
export const IssueLinkEventPayload = () =>
  z.object({ id, source_issue_id: id, target_issue_id: id, link_type: z.enum(["relates_to", "blocks"]), actor_id: id });

/** Durable events the issues service publishes (see index.ts). */
export const IssuesEvents = {
  /** `assignee_ids` and `description`: the new issue's (absent on a moved or cloned copy). */
  issueOpened: eventContract("issues.issue.opened", () => IssueEventPayload().extend(TodoFacts)),
  /**
   * `changes`: the fields that changed, state aside (a state change is closed or reopened).
   * `assignee_ids`: the ones added, when assignees changed; `description` and
   * `previous_description` when the description changed. `change_values`: each changed field of
   * GitLab's issue hook data with its value before and after (label_ids and assignee_ids as id lists),
   * for webhooks' `changes`.
   */
  issueUpdated: eventContract("issues.issue.updated", () =>
    IssueEventPayload().extend({ changes: z.array(z.string()), ...TodoFacts, previous_description: z.string().nullable().optional(), change_values: ChangeValuesSchema().optional() }),
  ),
  issueClosed: eventContract("issues.issue.closed", IssueEventPayload),
  issueReopened: eventContract("issues.issue.reopened", IssueEventPayload),
  /** The original, closed by the move; its copy is announced as opened. */
  issueMoved: eventContract("issues.issue.moved", () => IssueEventPayload().extend({ moved_to_id: id, to_project_id: id })),
  issueDeleted: eventContract("issues.issue.deleted", IssueEventPayload),
  /** Links between issues (GitLab's issue links); a deleted issue's links go with it, unannounced. */
  issueLinkCreated: eventContract("issues.issue_link.created", IssueLinkEventPayload),
  issueLinkDeleted: eventContract("issues.issue_link.deleted", IssueLinkEventPayload),
  /** Epics: a group's, by id and iid. */
  epicOpened: eventContract("issues.epic.opened", EpicEventPayload),
  epicUpdated: eventContract("issues.epic.updated", () => EpicEventPayload().extend({ changes: z.array(z.string()) })),
  epicClosed: eventContract("issues.epic.closed", EpicEventPayload),
  epicReopened: eventContract("issues.epic.reopened", EpicEventPayload),
  epicDeleted: eventContract("issues.epic.deleted", EpicEventPayload),
  /** issues.epic_note.created|updated|deleted: comments on epics (noteable_type Epic). */
  epicNoteCreated: epicNoteEvents.noteCreated,
  epicNoteUpdated: epicNoteEvents.noteUpdated,
  epicNoteDeleted: epicNoteEvents.noteDeleted,
  /** issues.note.created|updated|deleted (the shared notes code). */
  ...noteEventContracts("issues"),
  /** issues.award_emoji.awarded|revoked (the shared award emoji, on the noteables and their notes). */
  ...awardEventContracts("issues"),
};
