import { billableLevel, memberLevelValid, usingSeat } from "./seats";

const person = { state: "active", human: true };

describe("seats", () => {
  test.each([
    // level, free, premium, ultimate
    [5, false, false, false],
    [10, false, true, false],
    [15, false, true, true],
    [30, false, true, true],
    [50, false, true, true],
  ])("level %i is billable: free %s, premium %s, ultimate %s", (level, free, premium, ultimate) => {
    expect(billableLevel("free", level)).toBe(free);
    expect(billableLevel("premium", level)).toBe(premium);
    expect(billableLevel("ultimate", level)).toBe(ultimate);
  });

  test("a seat is taken by active people only; on Ultimate through a role above Guest", () => {
    expect(usingSeat("ultimate", person, 30)).toBe(true);
    expect(usingSeat("ultimate", person, 10)).toBe(false);
    expect(usingSeat("ultimate", person, 0)).toBe(false);
    expect(usingSeat("premium", person, 0)).toBe(true);
    expect(usingSeat("free", person, 50)).toBe(false);
    expect(usingSeat("ultimate", { state: "blocked", human: true }, 30)).toBe(false);
    expect(usingSeat("premium", { state: "active", human: false }, 30)).toBe(false);
  });

  test("membership levels: Guest to Owner; Minimal Access in paid top-level groups; never 0", () => {
    for (const level of [10, 15, 20, 30, 40, 50]) expect(memberLevelValid("free", level, false)).toBe(true);
    for (const level of [0, 35, 60, -1]) expect(memberLevelValid("ultimate", level, true)).toBe(false);
    expect(memberLevelValid("premium", 5, true)).toBe(true);
    expect(memberLevelValid("premium", 5, false)).toBe(false);
    expect(memberLevelValid("free", 5, true)).toBe(false);
  });
});
