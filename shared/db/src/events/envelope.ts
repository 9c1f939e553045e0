/** What travels for one domain event: over JetStream as the message, in-process as the argument. */
export interface EventEnvelope<P = unknown> {
  /** uuid, written with the change; consumers apply an id once. */
  id: string;
  /** e.g. `issues.issue.opened`. */
  name: string;
  /** ISO timestamp of the change. */
  occurredAt: string;
  payload: P;
}

export type EventMeta = Omit<EventEnvelope, "payload">;

/** JetStream subject of an event: every Collab event lives under `collab.` in the COLLAB_EVENTS stream. */
export const eventSubject = (name: string) => `collab.${name}`;
