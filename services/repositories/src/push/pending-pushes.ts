import type { ServiceKit } from "@collab/db";
import type { PushedRef } from "@collab/git";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { pendingPushes, repositories, type PendingPushRow } from "../db/schema";
import type { LocalStorages } from "../domain/storages";
import { adoptFirstBranchAsHead } from "./head";
import { pushAnnouncements, type PushedProject, type Pusher } from "./push-events";

/** How long a push session's hold on its row lasts without renewal: the sweep leaves younger ones alone. */
export const PUSH_LEASE_MS = 60_000;
/** A session renews its hold this often while git runs (a large push may take minutes). */
export const PUSH_LEASE_RENEW_MS = 20_000;
/** How often the sweep looks for rows whose session is gone. */
export const PUSH_SWEEP_EVERY_MS = 30_000;
/** Rows finished per sweep step (each is a few git reads and one transaction). */
const SWEEP_BATCH = 50;

const leaseEnd = () => sql`now() + ${`${PUSH_LEASE_MS} milliseconds`}::interval`;

export interface PushRecord {
  repositoryId: number;
  project: PushedProject;
  pusher: Pusher;
  updates: PushedRef[];
}

/** Records the accepted updates of a push (the pre-receive check, before git moves a ref): the row's id. */
export async function recordPush(kit: ServiceKit, push: PushRecord): Promise<number> {
  const [row] = await kit.db
    .insert(pendingPushes)
    .values({
      repositoryId: push.repositoryId,
      projectId: push.project.id,
      projectPath: push.project.path_with_namespace,
      userId: push.pusher.id,
      userUsername: push.pusher.username,
      updates: push.updates,
      heldUntil: leaseEnd(),
    })
    .returning({ id: pendingPushes.id });
  return row.id;
}

/** Keeps a push's row out of the sweep while its session runs; answers the function that stops renewing. */
export function holdPush(kit: ServiceKit, id: number): () => void {
  const timer = setInterval(() => {
    kit.db
      .update(pendingPushes)
      .set({ heldUntil: leaseEnd() })
      .where(eq(pendingPushes.id, id))
      .catch((err: Error) => kit.logger.warn({ err: err.message }, "renewing a push's hold failed"));
  }, PUSH_LEASE_RENEW_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Writes the events of a recorded push once git has exited, in the transaction that removes its
 * row: one event per update whose ref now holds the pushed value, none for the others (git refused
 * them, or a later push moved the ref again and announces that itself). Whoever removes the row
 * publishes, so a push finished twice (its session and a sweep) is announced once.
 */
export async function finishPush(kit: ServiceKit, dir: string, row: Pick<PendingPushRow, "id" | "projectId" | "projectPath" | "userId" | "userUsername" | "updates">): Promise<number> {
  await adoptFirstBranchAsHead(dir, row.updates);
  const events = await pushAnnouncements(dir, row.updates, { id: row.projectId, path_with_namespace: row.projectPath }, { id: row.userId, username: row.userUsername }, kit.baseUrl);
  const removed = await kit.events.transact(
    (tx) => tx.delete(pendingPushes).where(eq(pendingPushes.id, row.id)).returning({ id: pendingPushes.id }),
    (rows) => (rows.length ? events : []),
  );
  return removed.length ? events.length : 0;
}

/**
 * Finishes the recorded pushes whose session is gone (its hold ran out: the process died between
 * the ref update and the event write, or the write failed) on the storages this process serves.
 * Answers how many events it wrote.
 */
export async function sweepPendingPushes(kit: ServiceKit, storages: LocalStorages): Promise<number> {
  const names = storages.names;
  if (!names.length) return 0;
  const due = await kit.db
    .select({ push: pendingPushes, storage: repositories.storage, diskPath: repositories.diskPath })
    .from(pendingPushes)
    .innerJoin(repositories, eq(repositories.id, pendingPushes.repositoryId))
    .where(and(lt(pendingPushes.heldUntil, sql`now()`), inArray(repositories.storage, names)))
    .orderBy(asc(pendingPushes.id))
    .limit(SWEEP_BATCH);
  let written = 0;
  for (const { push, storage, diskPath } of due) {
    try {
      written += await finishPush(kit, storages.folderOf(storage, diskPath), push);
    } catch (err) {
      kit.logger.warn({ err: (err as Error).message, pendingPush: push.id }, "finishing a pending push failed");
    }
  }
  return written;
}
