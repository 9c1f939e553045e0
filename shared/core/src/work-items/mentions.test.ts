import { extractMentions } from "./mentions";

describe("extractMentions", () => {
  test("a name at the start of a line is directly addressed, elsewhere mentioned", () => {
    expect(extractMentions("@Alice @bob, please look\nthanks @carol.")).toEqual({ directlyAddressed: ["alice", "bob"], mentioned: ["carol"] });
  });

  test("code, e-mail addresses, @all and repeated names are no mentions", () => {
    const text = "mail me at x@dave.com\n```\n@erin in code\n```\nsee `@frank` and @all, then @gina and @gina";
    expect(extractMentions(text)).toEqual({ directlyAddressed: [], mentioned: ["gina"] });
  });

  test("a user both addressed and mentioned is addressed only; empty text mentions nobody", () => {
    expect(extractMentions("@hal first\nand @hal again")).toEqual({ directlyAddressed: ["hal"], mentioned: [] });
    expect(extractMentions(null)).toEqual({ directlyAddressed: [], mentioned: [] });
  });
});
