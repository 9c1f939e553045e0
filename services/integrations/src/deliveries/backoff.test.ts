import { FAILURE_THRESHOLD } from "../hooks/auto-disabling";
import { backoffMs, MAX_ATTEMPTS } from "./worker";

test("the default retries outlast a receiver down for a minute without the hook being disabled", () => {
  // Attempts at 0, 10, 30 and 70 s: the last comes after a minute of outage, after 3 failures (a
  // hook is disabled at its 4th in a row), so a receiver back within the minute gets the delivery.
  const starts = Array.from({ length: MAX_ATTEMPTS }, (_, i) => Array.from({ length: i }, (_, n) => backoffMs(n + 1)).reduce((a, b) => a + b, 0));
  expect(starts).toEqual([0, 10_000, 30_000, 70_000]);
  expect(starts[MAX_ATTEMPTS - 1]).toBeGreaterThan(60_000);
  expect(starts.filter((t) => t < 60_000)).toHaveLength(FAILURE_THRESHOLD);
  expect(backoffMs(2, 500)).toBe(1_000);
});
