/**
 * Retries `check` until it stops throwing (or rejecting) and answers its value; after `timeoutMs`
 * it throws the last failure. For effects that travel over the bus as events: they are applied
 * shortly after the request answers (in one process as across processes).
 * (No jest globals: `check` may use expect(), whose failure is what gets retried.)
 */
export async function eventually<T>(check: () => T | Promise<T>, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 50 } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() + intervalMs > deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
