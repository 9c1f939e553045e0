import type { Logger } from "moleculer";

/** A periodic job of a service: the storage-move worker, the scheduler, the purge. */
export interface Worker {
  /** Named in the log line of a failed step. */
  name: string;
  /** Interval in ms; 0 leaves the timer off (tests drive such work through a tick action). */
  everyMs: number;
  run: () => Promise<unknown>;
}

/**
 * Starts each worker's timer; a step never overlaps the previous one of the same worker, a failed
 * step is logged and the next one runs as usual, and the timers do not keep the process alive.
 * Answers the function that stops them all. Replicas each run their own timers: the work itself
 * claims rows with FOR UPDATE SKIP LOCKED, so they never take the same one.
 */
export function startWorkers(workers: readonly Worker[], logger: Logger): () => void {
  const timers = workers
    .filter((w) => w.everyMs > 0)
    .map((w) => {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        w.run()
          .catch((err: Error) => logger.warn({ err: err.message }, `${w.name} failed`))
          .finally(() => (running = false));
      }, w.everyMs);
      timer.unref();
      return timer;
    });
  return () => timers.forEach(clearInterval);
}
