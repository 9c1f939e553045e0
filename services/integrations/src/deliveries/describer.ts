import type { UserRef } from "@collab/accounts-contract";
import type { EventContract } from "@collab/core";
import type { EventKind } from "@collab/integrations-contract";
import type { z } from "zod";
import type { ProjectFacts } from "./targets";
import type { Enriched, HookRefs } from "../hooks/enrich";

/** What a message about an event needs, known from the payload alone. */
export interface Described {
  projectId: number;
  /** The event flag the integration must have on; null: none gates it (a Jira mention in an issue's comment). */
  kind: EventKind | null;
  actorId: number | null;
  /** Pushes and pipelines are filtered by branches_to_be_notified. */
  branch?: string;
  /** Pipelines: notify_only_broken_pipelines leaves out all but failed ones. */
  pipelineStatus?: string;
  /** Build servers: what the webhook body they get shows, read before it is built. */
  refs?: HookRefs;
  /** The message (a chat message's facts, a mail, a build trigger, Jira's mentions), kept with the delivery. */
  build: (project: ProjectFacts, author: string, at: string, user: UserRef | undefined, properties: Record<string, unknown>, enriched?: Enriched) => object;
}

interface PayloadSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false };
}

/**
 * How a notifier reads one producer's event: the fields it needs, picked from the producer's
 * schema (its contract entry), and the facts of the message.
 */
export interface Describer {
  event: EventContract;
  schema: () => PayloadSchema;
  describe: (p: any) => Described | null;
}

export const describer = <E extends EventContract, S extends z.ZodType>(event: E, select: (payload: ReturnType<E["payload"]>) => S, describe: (p: z.output<S>) => Described | null): Describer => {
  let schema: S | undefined;
  return { event, schema: () => (schema ??= select(event.payload() as ReturnType<E["payload"]>)), describe };
};

/** A notifier's describers by event name; an event described twice throws. */
export function byName(slug: string, describers: Describer[]): Record<string, Describer> {
  const out: Record<string, Describer> = {};
  for (const d of describers) {
    if (d.event.name in out) throw new Error(`integrations: ${slug} describes ${d.event.name} twice`);
    out[d.event.name] = d;
  }
  return out;
}
