import type { ServiceBroker } from "moleculer";
import type { EventEnvelope } from "./envelope";

/**
 * Events a consumer could not apply however long it retried, kept in a JetStream stream of their
 * own (file storage, no age limit) until an administrator replays or deletes them. The subject
 * names the consuming service and the event: `collab-dead-letter.<service>.<event name>`, outside
 * the events' own `collab.>` subjects (streams may not overlap).
 */
export const DEAD_LETTER_STREAM = "COLLAB_DEAD_LETTERS";
const SUBJECT_PREFIX = "collab-dead-letter";

/** One dead letter as the admin API lists it; `id` is its sequence number in the stream. */
export interface DeadLetter {
  id: number;
  /** The service whose consumer gave up. */
  service: string;
  event: EventEnvelope;
  /** The last error its consumer raised. */
  error: string;
  deliveries: number;
  dead_lettered_at: string;
}

type Letter = Omit<DeadLetter, "id">;

interface JetStream {
  publish(subject: string, data: Uint8Array, opts?: { msgID?: string }): Promise<{ seq: number; duplicate: boolean }>;
}
interface StreamsApi {
  add(config: Record<string, unknown>): Promise<unknown>;
  info(name: string): Promise<{ state: { messages: number; first_seq: number; last_seq: number } }>;
  getMessage(name: string, query: { seq: number }): Promise<{ seq: number; data: Uint8Array; time: Date }>;
  deleteMessage(name: string, seq: number, erase?: boolean): Promise<boolean>;
}
interface ChannelAdapter {
  connected?: boolean;
  client?: JetStream;
  manager?: { streams: StreamsApi };
}

const adapterOf = (broker: ServiceBroker): ChannelAdapter | undefined => (broker as unknown as { channelAdapter?: ChannelAdapter }).channelAdapter;

/** Whether this process reaches the durable event streams (distributed mode). */
export const hasEventStreams = (broker: ServiceBroker): boolean => adapterOf(broker) !== undefined;

function connected(broker: ServiceBroker): { js: JetStream; streams: StreamsApi } {
  const adapter = adapterOf(broker);
  if (!adapter?.connected || !adapter.client || !adapter.manager) throw new Error("the event streams are not connected");
  return { js: adapter.client, streams: adapter.manager.streams };
}

const ensured = new WeakSet<ServiceBroker>();
async function ensureStream(broker: ServiceBroker, streams: StreamsApi): Promise<void> {
  if (ensured.has(broker)) return;
  try {
    await streams.add({ name: DEAD_LETTER_STREAM, subjects: [`${SUBJECT_PREFIX}.>`], storage: "file" });
  } catch (err) {
    if (!/already in use/i.test((err as Error).message)) throw err;
  }
  ensured.add(broker);
}

/**
 * Sets an event aside for its consumer `service`. Resolves only once JetStream has stored it (the
 * caller acknowledges the original message only then); a repeat of the same letter within the
 * stream's duplicate window is stored once.
 */
export async function sendToDeadLetters(broker: ServiceBroker, letter: Letter): Promise<void> {
  const { js, streams } = connected(broker);
  await ensureStream(broker, streams);
  await js.publish(`${SUBJECT_PREFIX}.${letter.service}.${letter.event.name}`, Buffer.from(JSON.stringify(letter)), { msgID: `${letter.service}:${letter.event.id}` });
}

/** A page of dead letters, oldest first, with their total. */
export async function listDeadLetters(broker: ServiceBroker, page: number, perPage: number): Promise<{ rows: DeadLetter[]; total: number }> {
  const { streams } = connected(broker);
  await ensureStream(broker, streams);
  const { state } = await streams.info(DEAD_LETTER_STREAM);
  const rows: DeadLetter[] = [];
  let skip = (page - 1) * perPage;
  // Sequences have gaps where letters were replayed or deleted.
  for (let seq = state.first_seq; seq <= state.last_seq && rows.length < perPage && state.messages > 0; seq++) {
    const letter = await getDeadLetter(broker, seq);
    if (!letter) continue;
    if (skip > 0) skip--;
    else rows.push(letter);
  }
  return { rows, total: state.messages };
}

export async function getDeadLetter(broker: ServiceBroker, id: number): Promise<DeadLetter | undefined> {
  const { streams } = connected(broker);
  try {
    const msg = await streams.getMessage(DEAD_LETTER_STREAM, { seq: id });
    return { id: msg.seq, ...(JSON.parse(Buffer.from(msg.data).toString("utf8")) as Letter) };
  } catch (err) {
    if (/no message found|not found/i.test((err as Error).message)) return undefined;
    throw err;
  }
}

export async function deleteDeadLetter(broker: ServiceBroker, id: number): Promise<boolean> {
  const { streams } = connected(broker);
  try {
    return await streams.deleteMessage(DEAD_LETTER_STREAM, id, false);
  } catch (err) {
    if (/no message found|not found|stream store eof/i.test((err as Error).message)) return false;
    throw err;
  }
}
