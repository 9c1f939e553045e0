import { sanitizeUsername, uniqueUsername } from "./usernames";

describe("sanitizeUsername (ExternalUsernameSanitizer)", () => {
  it.each([
    ["alice", "alice"],
    ["alice@example.com", "alice"],
    ["Alice Smith", "AliceSmith"],
    ["-_.alice._-", "alice"],
    ["a..b__c--d", "a.b_c-d"],
    ["repo.git", "repo"],
    ["feed.atom.git", "feed"],
    ["jörg", "jrg"],
    ["@example.com", "blank"],
    ["...", "blank"],
  ])("%s → %s", (input, expected) => {
    expect(sanitizeUsername(input)).toBe(expected);
  });
});

describe("uniqueUsername (Uniquify)", () => {
  it("appends a counter until the name is free", async () => {
    const taken = new Set(["alice", "alice1"]);
    expect(await uniqueUsername("alice", async (c) => !taken.has(c))).toBe("alice2");
    expect(await uniqueUsername("bob", async (c) => !taken.has(c))).toBe("bob");
  });

  it("gives up after the attempts", async () => {
    expect(await uniqueUsername("x", async () => false, 3)).toBeUndefined();
  });
});
