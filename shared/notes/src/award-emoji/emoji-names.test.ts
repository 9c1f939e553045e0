import { emojiName } from "./emoji-names";

describe("emojiName", () => {
  test.each(["thumbsup", "thumbsdown", "tada", "rocket", "eyes", "heart", "100", "8ball", "slight_smile", "white_check_mark"])("%s is an emoji", (name) => {
    expect(emojiName(name)).toBe(name);
  });

  test("the vote aliases take their main names", () => {
    expect(emojiName("+1")).toBe("thumbsup");
    expect(emojiName("-1")).toBe("thumbsdown");
  });

  test.each(["", "not_an_emoji", ":tada:", "Tada", "tada tada", "👍"])("%j is not an emoji name", (name) => {
    expect(emojiName(name)).toBeNull();
  });
});
