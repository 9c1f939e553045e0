import type { Logger } from "moleculer";

/** A periodic job of a service: the storage-move worker, the scheduler, the purge. */
export interface Worker {
  /** Named in the log line of a failed step. */
  name: string;
  /** Interval in ms; 0 leaves the timer off (tests drive such work through a tick action). */
  everyMs: number;
  run: () => Promise<unknown>;
}

/** How long stopping waits for the steps still running (each is bounded by its own timeouts). */
const STOP_WAIT_MS = 30_000;

/**
 * Starts each worker's timer; a step never overlaps the previous one of the same worker, a failed
 * step is logged and the next one runs as usual, and the timers do not keep the process alive.
 * Answers the function that stops them all: no step starts after it is called, and it resolves
 * once the steps still running have finished (a service closes its pool only then), or after
 * STOP_WAIT_MS. Replicas each run their own timers: the work itself claims rows with FOR UPDATE
 * SKIP LOCKED, so they never take the same one.
 */
export function startWorkers(workers: readonly Worker[], logger: Logger): () => Promise<void> {
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  const timers = workers
    .filter((w) => w.everyMs > 0)
    .map((w) => {
      let step: Promise<unknown> | undefined;
      const timer = setInterval(() => {
        if (step || stopped) return;
        const current = w
          .run()
          .catch((err: Error) => logger.warn({ err: err.message }, `${w.name} failed`))
          .finally(() => {
            step = undefined;
            running.delete(current);
          });
        step = current;
        running.add(current);
      }, w.everyMs);
      timer.unref();
      return timer;
    });
  return async () => {
    stopped = true;
    timers.forEach(clearInterval);
    if (!running.size) return;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
    await Promise.race([Promise.allSettled([...running]), giveUp]);
    clearTimeout(timer);
  };
}

/**
 * One run at a time: a call while a run is under way waits for it, then runs again (the running
 * one may have started before what the caller wants done was due). For work a worker's timer and
 * a tick action share: the tick answers once everything due when it was called has been tried.
 */
export function oneAtATime<T>(run: () => Promise<T>): () => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return () => {
    const next = tail.then(run, run);
    tail = next.catch(() => undefined);
    return next;
  };
}
