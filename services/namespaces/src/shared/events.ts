import { announce } from "@collab/core";
import type { Announcement } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * What other services learn from namespaces: the durable events of its contract (Namespaces.events),
 * written in the transaction of the change (kit.events.transact) and applied once by each
 * consuming service. The builders below are the one place each payload is made.
 */
const E = Namespaces.events;

/** A project removed for good and the groups (with subgroups) removed with it. */
export const removalEvents = (r: { projectIds: number[]; namespaceIds: number[] }): Announcement[] => [
  ...r.projectIds.map((projectId) => projectDeleted(projectId)),
  ...(r.namespaceIds.length ? [announce(E.groupDeleted, { groupIds: r.namespaceIds })] : []),
];

export const projectDeleted = (projectId: number): Announcement => announce(E.projectDeleted, { projectId });

type MilestoneFacts = { id: number; iid: number; title: string; projectId: number | null; groupId: number | null };

/** A milestone created, updated, closed or reopened. */
export const milestoneEvent = (event: typeof E.milestoneCreated | typeof E.milestoneUpdated | typeof E.milestoneClosed | typeof E.milestoneReopened, m: MilestoneFacts, userId: number): Announcement =>
  announce(event, { id: m.id, iid: m.iid, title: m.title, projectId: m.projectId, groupId: m.groupId, userId });

/** A milestone deleted by `userId`: the issues that lose it are updated by them, as in GitLab. */
export const milestoneDeleted = (m: MilestoneFacts, userId: number): Announcement =>
  announce(E.milestoneDeleted, { milestoneIds: [m.id], projectId: m.projectId, groupId: m.groupId, userId, milestones: [{ id: m.id, iid: m.iid, title: m.title }] });

/** A label's title, colour, description or priority changed. */
export const labelUpdated = (l: { id: number }): Announcement => announce(E.labelUpdated, { labelIds: [l.id] });

/** A label deleted: issues and merge requests drop its links. */
export const labelDeleted = (l: { id: number; projectId: number | null; groupId: number | null }): Announcement =>
  announce(E.labelDeleted, { labelIds: [l.id], projectId: l.projectId, groupId: l.groupId });

/** A membership of a project or group (Namespace) created or removed. */
export const memberEvent = (event: typeof E.memberAdded | typeof E.memberRemoved, source: { type: "Namespace" | "Project"; id: number }, userId: number, accessLevel: number | null, actorId: number): Announcement =>
  announce(event, { sourceType: source.type, sourceId: source.id, projectId: source.type === "Project" ? source.id : null, groupId: source.type === "Namespace" ? source.id : null, userId, accessLevel, actorId });
