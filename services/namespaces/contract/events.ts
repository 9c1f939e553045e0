import { broadcastContract, eventContract } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();

/** A milestone as its events carry it: a project's (groupId null) or a group's (projectId null). */
const Milestone = () => z.object({ id, iid: id, title: z.string(), projectId: id.nullable(), groupId: id.nullable(), userId: id });

/** A membership of a project (sourceType Project) or group (Namespace) created or removed; accessLevel null on removal. */
const Member = () =>
  z.object({
    sourceType: z.enum(["Project", "Namespace"]),
    sourceId: id,
    projectId: id.nullable(),
    groupId: id.nullable(),
    userId: id,
    accessLevel: z.number().int().nullable(),
    actorId: id,
  });

/**
 * Durable events the namespaces service publishes (see index.ts), written in the transaction of
 * the change and applied once by each consuming service. Ids are never reused, so a late or
 * repeated event can only touch links to what is gone. The bounds on id lists are the consumers'.
 */
export const NamespacesEvents = {
  projectCreated: eventContract("namespaces.project.created", () => z.object({ projectId: id, userId: id, name: z.string(), namespaceId: id })),
  /** A project removed for good (at once, or when its adjourned deletion is due). */
  projectDeleted: eventContract("namespaces.project.deleted", () => z.object({ projectId: id })),
  /** A deleted group and all its subgroups (their projects each had projectDeleted). */
  groupDeleted: eventContract("namespaces.group.deleted", () => z.object({ groupIds: z.array(id).max(100_000) })),
  /** Issues and merge requests drop the label links (a group's label may be on issues of any project below it). */
  labelDeleted: eventContract("namespaces.label.deleted", () => z.object({ labelIds: z.array(id).max(10_000), projectId: id.nullable(), groupId: id.nullable() })),
  /** A label's title, colour, description or priority changed (services showing labels empty what they hold). */
  labelUpdated: eventContract("namespaces.label.updated", () => z.object({ labelIds: z.array(id).max(10_000) })),
  milestoneCreated: eventContract("namespaces.milestone.created", Milestone),
  /** A milestone's title, description or dates changed (its state has milestoneClosed / milestoneReopened). */
  milestoneUpdated: eventContract("namespaces.milestone.updated", Milestone),
  milestoneClosed: eventContract("namespaces.milestone.closed", Milestone),
  milestoneReopened: eventContract("namespaces.milestone.reopened", Milestone),
  /** `userId` deleted it: the issues that lose the milestone are updated by them, as in GitLab. */
  milestoneDeleted: eventContract("namespaces.milestone.deleted", () =>
    z.object({
      milestoneIds: z.array(id).max(10_000),
      projectId: id.nullable(),
      groupId: id.nullable(),
      userId: id,
      milestones: z.array(z.object({ id, iid: id, title: z.string() })),
    }),
  ),
  memberAdded: eventContract("namespaces.member.added", Member),
  memberRemoved: eventContract("namespaces.member.removed", Member),

  /** Broadcast (not durable): a user's memberships changed, or a group's members as a whole. */
  membersChanged: broadcastContract("namespaces.members.changed", () => z.union([z.object({ userId: id }), z.object({ groupId: id })])),
};
