import { expireAt, formatMatchesType } from "./artifact-types";

describe("job artifact types", () => {
  it("pairs each type with its one format (security reports are raw JSON); a trace takes any", () => {
    expect(formatMatchesType("sast", "raw")).toBe(true);
    expect(formatMatchesType("dependency_scanning", "zip")).toBe(false);
    expect(formatMatchesType("archive", "zip")).toBe(true);
    expect(formatMatchesType("trace", "gzip")).toBe(true);
  });

  it("reads expire_in as GitLab's durations: default 30 days, never, seconds, units", () => {
    const now = new Date("2030-01-01T00:00:00Z");
    const at = (s?: string) => expireAt(s, now)?.toISOString() ?? expireAt(s, now);
    expect(at()).toBe("2030-01-31T00:00:00.000Z");
    expect(at("never")).toBeNull();
    expect(at("3600")).toBe("2030-01-01T01:00:00.000Z");
    expect(at("1 week 2 days")).toBe("2030-01-10T00:00:00.000Z");
    expect(at("2 hours and 30 mins")).toBe("2030-01-01T02:30:00.000Z");
    expect(at("soon")).toBeUndefined();
    expect(at("3 fortnights")).toBeUndefined();
  });
});
