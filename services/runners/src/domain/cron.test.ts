import { ianaZone, nextRunAt, parseCron } from "./cron";

const at = (s: string) => new Date(s);
const next = (cron: string, tz: string, from: string) => nextRunAt(cron, tz, at(from))?.toISOString() ?? null;

describe("parseCron", () => {
  test.each(["* * * * *", "0 1 * * *", "*/15 * * * *", "0 9-17/2 * * MON-FRI", "5,10,15 * 1 jan,jul sun", "0 0 * * 7", "@daily", "@hourly", "30 4 1-10/3 * *", "0 12 * 1-12/3 *"])(
    "accepts %s",
    (c) => expect(parseCron(c)).not.toBeNull(),
  );
  test.each(["", "* * * *", "* * * * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * * 13 *", "* * * * 8", "*/0 * * * *", "5-1 * * * *", "a * * * *", "1,,2 * * * *", "* * * * foo", "0 0 1-2-3 * *"])(
    "rejects %j",
    (c) => expect(parseCron(c)).toBeNull(),
  );
  test("7 and 0 are both Sunday", () => expect([...parseCron("0 0 * * 7")!.weekdays]).toEqual([0]));
});

describe("nextRunAt", () => {
  test("every minute is the next whole minute", () => expect(next("* * * * *", "UTC", "2024-05-01T10:20:30.500Z")).toBe("2024-05-01T10:21:00.000Z"));
  test("strictly after an exact match", () => expect(next("0 1 * * *", "UTC", "2024-05-01T01:00:00.000Z")).toBe("2024-05-02T01:00:00.000Z"));
  test("steps", () => expect(next("*/15 * * * *", "UTC", "2024-05-01T10:16:00Z")).toBe("2024-05-01T10:30:00.000Z"));
  test("weekday names and ranges", () => expect(next("0 9 * * MON-FRI", "UTC", "2024-05-03T10:00:00Z")).toBe("2024-05-06T09:00:00.000Z")); // Fri → Mon
  test("month rollover and names", () => expect(next("0 0 1 jan *", "UTC", "2024-05-01T00:00:00Z")).toBe("2025-01-01T00:00:00.000Z"));
  test("day-of-month OR day-of-week when both are restricted", () => expect(next("0 0 13 * FRI", "UTC", "2024-05-01T00:00:00Z")).toBe("2024-05-03T00:00:00.000Z"));
  test("leap day", () => expect(next("0 0 29 2 *", "UTC", "2024-03-01T00:00:00Z")).toBe("2028-02-29T00:00:00.000Z"));
  test("never firing is null", () => expect(next("0 0 30 2 *", "UTC", "2024-03-01T00:00:00Z")).toBeNull());
  test("time zone: Tokyo 09:00 is 00:00 UTC", () => expect(next("0 9 * * *", "Asia/Tokyo", "2024-05-01T01:00:00Z")).toBe("2024-05-02T00:00:00.000Z"));
  test("Rails zone names", () => expect(next("0 9 * * *", "Tokyo", "2024-05-01T01:00:00Z")).toBe("2024-05-02T00:00:00.000Z"));
  test("DST spring forward skips the missing hour", () =>
    // 2024-03-10 02:30 does not exist in New York: the next match is the following day.
    expect(next("30 2 * * *", "America/New_York", "2024-03-10T05:00:00Z")).toBe("2024-03-11T06:30:00.000Z"));
  test("DST: local 09:00 before and after the change", () => {
    expect(next("0 9 * * *", "Europe/Berlin", "2024-03-30T09:00:00Z")).toBe("2024-03-31T07:00:00.000Z");
    expect(next("0 9 * * *", "Europe/Berlin", "2024-03-29T09:00:00Z")).toBe("2024-03-30T08:00:00.000Z");
  });
  test("invalid zone", () => expect(next("* * * * *", "Mars/Olympus", "2024-05-01T00:00:00Z")).toBeNull());
  test("zones", () => {
    expect(ianaZone("UTC")).toBe("Etc/UTC");
    expect(ianaZone("Pacific Time (US & Canada)")).toBe("America/Los_Angeles");
    expect(ianaZone("Nowhere")).toBeNull();
  });
});
