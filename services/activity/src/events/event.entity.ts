import type { UserRef } from "@collab/core";
import type { ActivityEvent } from "@collab/activity-contract";
import type { EventRow, ProjectEventRow } from "../db/schema";

/** Event#action_name: GitLab's words for each action (a merge is "accepted", a comment "commented on"). */
export function actionName(e: Pick<EventRow, "action" | "targetType" | "pushData">): string {
  if (e.pushData) return e.pushData.action === "created" ? "pushed new" : e.pushData.action === "removed" ? "deleted" : "pushed to";
  switch (e.action) {
    case "closed":
    case "joined":
    case "left":
    case "destroyed":
    case "approved":
      return e.action;
    case "merged":
      return "accepted";
    case "expired":
      return "removed due to membership expiration from";
    case "commented":
      return "commented on";
    case "created":
      return e.targetType === null ? "created" : "opened";
    default:
      // Reopened targets read "opened", as in GitLab.
      return "opened";
  }
}

/** Entities::Event as the spec shapes it; users that no longer exist present as null. */
export function presentEvent(e: ProjectEventRow, users: Map<number, UserRef>): ActivityEvent {
  const author = users.get(e.authorId) ?? null;
  return {
    id: e.id,
    title: null,
    project_id: e.projectId,
    action_name: actionName(e),
    target_id: e.targetId,
    target_iid: e.targetIid,
    target_type: e.targetType,
    author_id: e.authorId,
    target_title: e.targetTitle,
    created_at: e.createdAt.toISOString(),
    ...(e.note
      ? {
          note: {
            id: e.note.id,
            body: e.note.body,
            attachment: null,
            author: users.get(e.note.author_id) ?? null,
            created_at: e.note.created_at,
            system: e.note.system,
            noteable_id: e.note.noteable_id,
            noteable_type: e.note.noteable_type,
            noteable_iid: e.note.noteable_iid,
            ...(e.note.commit_id !== undefined ? { commit_id: e.note.commit_id } : {}),
          },
        }
      : {}),
    author,
    ...(e.pushData ? { push_data: { ...e.pushData, ref_count: e.pushData.ref_count ?? null } } : {}),
    author_username: author?.username ?? null,
    imported: false,
    imported_from: "none",
    data: null,
  };
}

/** The users a page of events names (authors and comment authors), for one userMap call. */
export const userIdsOf = (rows: EventRow[]) => rows.flatMap((e) => (e.note ? [e.authorId, e.note.author_id] : [e.authorId]));
