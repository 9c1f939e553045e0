import { alertStatus, categoryOf, stateAfter } from "./auto-disabling";

const fresh = { recentFailures: 0, backoffCount: 0, disabledUntil: null as Date | null };
const now = new Date("2026-01-01T00:00:00Z");
const run = (categories: ("ok" | "failed" | "error")[]) => categories.reduce((h, c) => stateAfter(h, c, now) ?? h, fresh);

describe("webhook auto-disabling (GitLab's WebHooks::AutoDisabling)", () => {
  test("answers sort into ok (2xx), failed (other 1xx-4xx) and error (5xx, no answer)", () => {
    expect([200, 204, 301, 404, 422, 500, 503, null].map(categoryOf)).toEqual(["ok", "ok", "failed", "failed", "failed", "error", "error", "error"]);
  });

  test("server errors: three in a row leave it executable; the 4th disables it for a minute, then 2, 4 … up to a day", () => {
    expect(alertStatus(run(["error", "error", "error"]), now)).toBe("executable");
    const fourth = run(["error", "error", "error", "error"]);
    expect(fourth).toEqual({ recentFailures: 4, backoffCount: 1, disabledUntil: new Date(now.getTime() + 60_000) });
    expect(alertStatus(fourth, now)).toBe("temporarily_disabled");
    expect(alertStatus(fourth, new Date(now.getTime() + 61_000))).toBe("executable");
    expect(stateAfter(fourth, "error", now)!.disabledUntil).toEqual(new Date(now.getTime() + 120_000));
    const long = { recentFailures: 50, backoffCount: 20, disabledUntil: new Date(now.getTime() - 1000) };
    expect(stateAfter(long, "error", now)!.disabledUntil).toEqual(new Date(now.getTime() + 86_400_000));
  });

  test("client errors: disabled for good after the 4th in a row; a success clears everything", () => {
    expect(alertStatus(run(["failed", "failed", "failed"]), now)).toBe("executable");
    const disabled = run(["failed", "failed", "failed", "failed"]);
    expect(alertStatus(disabled, now)).toBe("disabled");
    // A server error does not turn a permanently disabled hook into a temporary one.
    expect(stateAfter(disabled, "error", now)).toBeNull();
    expect(stateAfter(disabled, "ok", now)).toEqual(fresh);
    expect(stateAfter(fresh, "ok", now)).toBeNull();
  });
});
