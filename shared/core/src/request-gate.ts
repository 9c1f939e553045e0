/**
 * A process-wide hold on incoming requests: the gateway handles none until the promise given here
 * has settled (a worker of a multi-worker API waits to be known by its siblings, whose writes must
 * flush what it will hold). Connections accepted meanwhile just wait.
 */
let held: Promise<void> | undefined;

export function holdRequestsUntil(ready: Promise<void>): void {
  const gate: Promise<void> = ready.catch(() => undefined).finally(() => {
    if (held === gate) held = undefined;
  });
  held = gate;
}

/** The hold, while there is one. */
export const requestsHeld = (): Promise<void> | undefined => held;
