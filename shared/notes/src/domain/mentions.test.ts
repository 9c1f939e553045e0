import { mentionedUsernames } from "./mentions";

describe("mentionedUsernames", () => {
  test("finds each @username once, in order, case-insensitively", () => {
    expect(mentionedUsernames(["cc @alice and @bob.smith, then @Alice again", "@carol-x."])).toEqual(["alice", "bob.smith", "carol-x"]);
  });

  test("leaves out e-mail addresses, code and empty texts", () => {
    expect(mentionedUsernames(["mail alice@example.com", "`@inline` and\n```\n@fenced\n```\n@real", null, undefined, ""])).toEqual(["real"]);
  });
});
