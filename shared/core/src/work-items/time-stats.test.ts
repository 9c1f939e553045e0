import { humanDuration, parseDuration, timeStats } from "./time-stats";

describe("parseDuration", () => {
  test.each([
    ["3h30m", 3 * 3600 + 30 * 60],
    ["1w 2d", 5 * 8 * 3600 + 2 * 8 * 3600],
    ["1mo", 4 * 5 * 8 * 3600],
    ["1d", 8 * 3600],
    ["90m", 5400],
    ["45s", 45],
    ["1.5h", 5400],
    ["2", 7200],
    ["1:30", 5400],
    ["1:30:15", 5415],
    ["  2 hours, 15 minutes ", 2 * 3600 + 15 * 60],
    ["1 day and 2 hours", 10 * 3600],
    ["3H", 3 * 3600],
    ["-30m", -1800],
    ["- 1h", -3600],
    ["1y", 31_557_600],
  ])("%s is %i seconds", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  test.each(["", "   ", "-", "abc", "3x", "3h abc", "h", "1h-2m", "1:75", "1e9999h"])("%j is not a duration", (text) => {
    expect(parseDuration(text)).toBeNull();
  });

  test("zero is no duration unless kept (estimates may be reset to 0 with a duration)", () => {
    expect(parseDuration("0h")).toBeNull();
    expect(parseDuration("0h", { keepZero: true })).toBe(0);
    expect(parseDuration("0", { keepZero: true })).toBe(0);
  });

  test("fractions of a second are dropped", () => {
    expect(parseDuration("1.9s")).toBe(1);
  });
});

describe("humanDuration", () => {
  test.each([
    [0, null],
    [45, "45s"],
    [3600 * 3 + 1800, "3h 30m"],
    [8 * 3600, "1d"],
    [7 * 8 * 3600, "1w 2d"],
    [4 * 5 * 8 * 3600 + 60, "1mo 1m"],
    [-5400, "-1h 30m"],
  ])("%i seconds read %j", (seconds, text) => {
    expect(humanDuration(seconds)).toBe(text);
  });

  test("round-trips through parseDuration", () => {
    for (const seconds of [59, 3600, 12_345, 987_654]) expect(parseDuration(humanDuration(seconds)!)).toBe(seconds);
  });

  test("timeStats presents both counts", () => {
    expect(timeStats(3600, 0)).toEqual({ time_estimate: 3600, total_time_spent: 0, human_time_estimate: "1h", human_total_time_spent: null });
  });
});
