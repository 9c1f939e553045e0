import { call as callAction, errorBodyOf, isUnanswered, isUniqueViolation, paramError, viaBus, type BusCall, type InputOf } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { Snippets } from "@collab/snippets-contract";
import { nodesServing, onStorage, Repositories, type ServiceRegistryView } from "@collab/repositories-contract";
import type { Db } from "@collab/db";
import type { ServiceBroker } from "moleculer";
import { and, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { storageMoves, type StorageMoveRow } from "../db/schema";

export type ContainerType = "project" | "snippet" | "group";

/** A bus call (a context's or the broker's). */
export type Call = BusCall;

/**
 * What the data steps need of the broker: calls with options, and the registry routing them to
 * the replica serving a storage (`onStorage`). Without it (the state machine's database tests)
 * the moves copy nothing.
 */
export type Broker = Pick<ServiceBroker, "call"> & ServiceRegistryView;

/** How long the destination's replica may take to copy and verify one repository. */
const COPY_TIMEOUT_MS = 30 * 60_000;

/** The storage calls of a container type: snippets answer for snippets, namespaces for projects and groups (the same contract shape). */
type SetStateInput = Omit<InputOf<typeof Namespaces.storage.setState>, "kind">;
export function containerStorage(call: Call, kind: ContainerType) {
  const bus = viaBus(call);
  return kind === "snippet"
    ? {
        state: (ref: string | number) => callAction(bus, Snippets.storage.state, { kind, ref: String(ref) }),
        setState: (p: SetStateInput) => callAction(bus, Snippets.storage.setState, { kind, ...p }),
        writableIds: (storage: string) => callAction(bus, Snippets.storage.writableIds, { kind, storage }),
      }
    : {
        state: (ref: string | number) => callAction(bus, Namespaces.storage.state, { kind, ref }),
        setState: (p: SetStateInput) => callAction(bus, Namespaces.storage.setState, { kind, ...p }),
        writableIds: (storage: string) => callAction(bus, Namespaces.storage.writableIds, { kind, storage }),
      };
}

/*
 * A move's states are GitLab's (RepositoryStorageMovable), and each is recorded only once the
 * container's owner (namespaces for projects and groups, snippets for snippets) confirmed what it stands for:
 *   initial     recorded; the container is not known to be read-only yet
 *   scheduled   namespaces made the container read-only
 *   started     the repository is being copied by the destination's replica (repositories
 *               service: from the source's replica, verified, then its row switched)
 *   replicated  namespaces put the container on the destination and made it writable again
 *   finished    the source's copy is removed
 *   failed      the container vanished, or was unlocked during the move, or the copy failed
 *               (destination unserved, a git failure, a copy that differs): the source is
 *               untouched and the container writable again
 *   cleanup failed  moved, but the source's copy could not be removed
 * Only project moves copy data: snippets keep their files in the snippets service's tables and
 * groups have no repository here (group wikis are not kept).
 * Every step is safe to repeat, and a step whose call gets no answer (namespaces down, a timeout)
 * changes nothing but `error_message`: the move keeps its state and a later tick repeats the step.
 * A move in scheduled, started or replicated holds its container (a unique index: one at a time).
 */

/** An `initial` move younger than this may still be waiting for the lock call of the request that made it (far longer than REQUEST_TIMEOUT_MS). */
const INITIAL_GRACE = "5 minutes";
const VANISHED = "container no longer exists";

/** Picks a destination by weight (GitLab's pick_repository_storage), preferring another storage. */
export function pickStorage(weights: Record<string, number>, source: string): string {
  const entries = Object.entries(weights).filter(([, w]) => w > 0);
  const others = entries.filter(([name]) => name !== source);
  const pool = others.length ? others : entries;
  const total = pool.reduce((s, [, w]) => s + w, 0);
  let r = Math.random() * total;
  for (const [name, w] of pool) if ((r -= w) < 0) return name;
  return pool[0]?.[0] ?? source;
}

export async function listMoves(db: Db, type: ContainerType, p: { page: number; per_page: number }, containerId?: number) {
  const where = and(eq(storageMoves.containerType, type), containerId === undefined ? undefined : eq(storageMoves.containerId, containerId));
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(storageMoves).where(where).orderBy(desc(storageMoves.createdAt), desc(storageMoves.id)).limit(p.per_page).offset((p.page - 1) * p.per_page),
    db.select({ total: count() }).from(storageMoves).where(where),
  ]);
  return { rows, total };
}

export async function findMove(db: Db, type: ContainerType, id: number, containerId?: number): Promise<StorageMoveRow | undefined> {
  const [row] = await db
    .select()
    .from(storageMoves)
    .where(and(eq(storageMoves.id, id), eq(storageMoves.containerType, type), containerId === undefined ? undefined : eq(storageMoves.containerId, containerId)));
  return row;
}

/**
 * Schedules moves. They are recorded first (`initial`), then their containers are made read-only
 * in namespaces (only those still writable: a container already moving answers the model's "is
 * read-only"), and the moves of the containers locked become `scheduled`, the others go. When the
 * lock call gets no answer the moves stay `initial` (answered so) and the worker goes on with them,
 * so a lock that went through unseen always has its move to lift it.
 */
export async function scheduleMoves(
  db: Db,
  call: Call,
  type: ContainerType,
  containers: { id: number; source: string }[],
  destination: (source: string) => string,
): Promise<StorageMoveRow[]> {
  if (!containers.length) return [];
  const created = await db
    .insert(storageMoves)
    .values(containers.map((c) => ({ containerType: type, containerId: c.id, state: "initial", sourceStorageName: c.source, destinationStorageName: destination(c.source) })))
    .returning();
  let locked: number[];
  try {
    locked = await containerStorage(call, type).setState({ ids: containers.map((c) => c.id), read_only: true, expect_writable: true });
  } catch (err) {
    if (isUnanswered(err)) return created;
    await db.delete(storageMoves).where(inArray(storageMoves.id, created.map((m) => m.id)));
    throw err;
  }
  const lockedSet = new Set(locked);
  const mine = created.filter((m) => lockedSet.has(m.containerId));
  const refused = created.filter((m) => !lockedSet.has(m.containerId)).map((m) => m.id);
  const dropRefused = async (tx: Db) => {
    if (refused.length) await tx.delete(storageMoves).where(and(inArray(storageMoves.id, refused), eq(storageMoves.state, "initial")));
  };
  try {
    return await db.transaction(async (tx) => {
      await dropRefused(tx);
      if (!mine.length) return [];
      return tx
        .update(storageMoves)
        .set({ state: "scheduled", updatedAt: sql`now()` })
        .where(and(inArray(storageMoves.id, mine.map((m) => m.id)), eq(storageMoves.state, "initial")))
        .returning();
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another move still holds one of these containers (switched, not yet recorded so): these
    // stay `initial`, and the worker schedules them once it let go.
    await dropRefused(db);
    return mine;
  }
}

/** Moves in a state (an `initial` one only once its request is surely over), in id order. */
function movesIn(db: Db, state: "initial" | "started" | "replicated"): Promise<StorageMoveRow[]> {
  return db
    .select()
    .from(storageMoves)
    .where(and(eq(storageMoves.state, state), state === "initial" ? lt(storageMoves.createdAt, sql`now() - ${INITIAL_GRACE}::interval`) : undefined))
    .orderBy(storageMoves.id);
}

/** Records the next state if the move is still in `from` (another replica may have been faster); false when not, or when another move holds the container. */
async function advance(db: Db, move: StorageMoveRow, from: string, to: string): Promise<boolean> {
  try {
    const rows = await db
      .update(storageMoves)
      .set({ state: to, errorMessage: null, updatedAt: sql`now()` })
      .where(and(eq(storageMoves.id, move.id), eq(storageMoves.state, from)))
      .returning({ id: storageMoves.id });
    return rows.length > 0;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

async function fail(db: Db, move: StorageMoveRow, from: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(storageMoves)
    .set({ state: "failed", errorMessage: reason, updatedAt: sql`now()` })
    .where(and(eq(storageMoves.id, move.id), eq(storageMoves.state, from)))
    .returning({ id: storageMoves.id });
  return rows.length > 0;
}

/** The container's storage and lock as namespaces has them; null when it no longer exists (its 404, an answer). */
async function containerState(call: Call, move: StorageMoveRow): Promise<{ repository_storage: string; repository_read_only: boolean } | null> {
  try {
    return await containerStorage(call, move.containerType as ContainerType).state(move.containerId);
  } catch (err) {
    if (errorBodyOf(err)?.status === 404) return null;
    throw err;
  }
}

/**
 * initial → scheduled: makes the container read-only. A container found read-only already is this
 * move's own lock, taken by a call whose answer was lost, unless another move holds the container
 * (the unique index refuses this one then, and it waits).
 */
async function lock(db: Db, call: Call, move: StorageMoveRow): Promise<boolean> {
  const locked = await containerStorage(call, move.containerType as ContainerType).setState({ ids: [move.containerId], read_only: true, expect_writable: true });
  if (!locked.includes(move.containerId)) {
    const state = await containerState(call, move);
    if (!state) return fail(db, move, "initial", VANISHED);
    if (!state.repository_read_only) return false; // unlocked since the call: the next tick locks it
  }
  return advance(db, move, "initial", "scheduled");
}

/**
 * started → replicated: the container takes its new storage and becomes writable, only if it is
 * still read-only on the source (a repeated call never lifts a later lock). Found on the
 * destination already, an earlier call went through and only its answer was lost.
 */
async function switchStorage(db: Db, call: Call, move: StorageMoveRow): Promise<boolean> {
  const changed = await containerStorage(call, move.containerType as ContainerType).setState({
    ids: [move.containerId],
    read_only: false,
    storage: move.destinationStorageName,
    locked_on: move.sourceStorageName,
  });
  if (!changed.includes(move.containerId)) {
    const state = await containerState(call, move);
    if (!state) return fail(db, move, "started", VANISHED);
    if (state.repository_storage !== move.destinationStorageName) return fail(db, move, "started", "container was no longer read-only on its source storage");
  }
  return advance(db, move, "started", "replicated");
}

/** Only projects have repositories in the repositories service (snippets keep their files in their own tables); a move within one storage copies nothing. */
/** Projects and snippets have repositories (the repositories service's); a group's move moves no data here. */
const hasRepository = (move: StorageMoveRow) => (move.containerType === "project" || move.containerType === "snippet") && move.sourceStorageName !== move.destinationStorageName;
const repositoryOf = (move: StorageMoveRow) => ({ container_kind: move.containerType as "project" | "snippet", container_id: move.containerId });
const messageOf = (err: unknown) => {
  const m = errorBodyOf(err)?.body.message;
  return typeof m === "string" ? m : err instanceof Error ? err.message : String(err);
};

/** A move that cannot copy: the container is writable again on its source (only if this move's lock is still there), and the move failed. */
async function abandon(db: Db, call: Call, move: StorageMoveRow, reason: string): Promise<boolean> {
  await containerStorage(call, move.containerType as ContainerType).setState({ ids: [move.containerId], read_only: false, locked_on: move.sourceStorageName });
  return fail(db, move, "started", reason);
}

/**
 * started → replicated: the destination's replica copies and verifies the repository and switches
 * its row, then namespaces switches the container (switchStorage). A refusal (the copy failed or
 * differs, no replica serves the destination) fails the move; no answer repeats the step.
 */
async function copyAndSwitch(db: Db, call: Call, broker: Broker | undefined, move: StorageMoveRow): Promise<boolean> {
  if (broker && hasRepository(move)) {
    const destination = move.destinationStorageName;
    if (!nodesServing(broker, destination).length) return abandon(db, call, move, `repository storage ${destination} is not served by any repositories replica`);
    try {
      await callAction(broker, Repositories.repositories.replicate, { ...repositoryOf(move), storage: destination }, onStorage(broker, destination, { timeout: COPY_TIMEOUT_MS }));
    } catch (err) {
      if (isUnanswered(err)) throw err;
      return abandon(db, call, move, messageOf(err));
    }
  }
  return switchStorage(db, call, move);
}

/** replicated → finished: the source's replica removes the copy left there; a refusal is `cleanup failed`. */
async function cleanUp(db: Db, broker: Broker | undefined, move: StorageMoveRow): Promise<boolean> {
  if (broker && hasRepository(move)) {
    const source = move.sourceStorageName;
    try {
      await callAction(broker, Repositories.repositories.removeCopy, { ...repositoryOf(move), storage: source }, onStorage(broker, source));
    } catch (err) {
      if (isUnanswered(err)) throw err;
      const rows = await db
        .update(storageMoves)
        .set({ state: "cleanup failed", errorMessage: messageOf(err), updatedAt: sql`now()` })
        .where(and(eq(storageMoves.id, move.id), eq(storageMoves.state, "replicated")))
        .returning({ id: storageMoves.id });
      return rows.length > 0;
    }
  }
  return advance(db, move, "replicated", "finished");
}

/**
 * One worker step; answers how many moves advanced. Switches started moves and finishes replicated
 * ones first, so a move advances one state a tick (scheduled → started, then started → finished
 * through replicated). Replicas may run steps together: each state is recorded with a conditional
 * UPDATE and each bus call is safe to repeat, so nothing happens twice; no transaction is held
 * across a bus call.
 */
export async function tick(db: Db, call: Call, broker?: Broker): Promise<number> {
  let advanced = 0;
  const step = async (move: StorageMoveRow, run: (db: Db, call: Call, move: StorageMoveRow) => Promise<boolean>) => {
    try {
      if (await run(db, call, move)) advanced++;
    } catch (err) {
      // No answer: the move keeps its state, saying why it waits, and the next tick repeats the step.
      const reason = `${err instanceof Error ? err.message : String(err)} (retrying)`;
      await db.update(storageMoves).set({ errorMessage: reason }).where(and(eq(storageMoves.id, move.id), eq(storageMoves.state, move.state)));
    }
  };
  for (const move of await movesIn(db, "started")) await step(move, (db, call, move) => copyAndSwitch(db, call, broker, move));
  for (const move of await movesIn(db, "replicated")) await step(move, (db, _call, move) => cleanUp(db, broker, move));
  const rows = await db.update(storageMoves).set({ state: "started", updatedAt: sql`now()` }).where(eq(storageMoves.state, "scheduled")).returning({ id: storageMoves.id });
  advanced += rows.length;
  for (const move of await movesIn(db, "initial")) await step(move, lock);
  return advanced;
}

export const unknownStorage = (param: string) => paramError(`${param} does not have a valid value`);
