import { flushAccessEverywhere, flushingAfterWrites, namesOf } from "@collab/core";
import type { Subscriptions, ServiceKit } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import type { ServiceSchema } from "moleculer";

/**
 * The work-item services hold this service's access.project answers (@collab/work-items,
 * projects.ts). Every change that may alter one — a member, a project, a group, an invitation
 * accepted, a deletion, a storage move, a renamed personal namespace — empties every holder on
 * every node, each acknowledging, before the change answers.
 */
/** Writes that change no project, namespace or membership: labels, milestones and an issue write's input checks. */
const CHANGES_NO_ACCESS = namesOf([
  Namespaces.workItems.resolveInput,
  Namespaces.workItems.authorizeIssueWrite,
  Namespaces.labels.create,
  Namespaces.labels.update,
  Namespaces.labels.delete,
  Namespaces.labels.resolveForProject,
  Namespaces.labels.resolveForGroup,
  Namespaces.milestones.create,
  Namespaces.milestones.update,
  Namespaces.milestones.delete,
]);

/** The service's action maps, every write but the harmless ones flushing before it answers. */
type Actions = NonNullable<ServiceSchema["actions"]>;

export const flushingAccess = (maps: Actions[]): Actions[] => flushingAfterWrites(maps, CHANGES_NO_ACCESS, (ctx, action) => flushAccessEverywhere(ctx, action));

/** Consumers whose every applied event flushes, once committed (a user deleted takes their memberships). */
export function flushingAccessAfterEvents(kit: ServiceKit, subscriptions: Subscriptions): Subscriptions {
  const out: Record<string, Subscriptions[string]> = {};
  for (const [name, consumer] of Object.entries(subscriptions)) {
    out[name] = {
      ...consumer,
      handle: (payload, tx, event, afterCommit) => {
        afterCommit(() => flushAccessEverywhere(kit.broker, name));
        return consumer.handle(payload, tx, event, afterCommit);
      },
    };
  }
  return out as Subscriptions;
}
