import { draftlessTitle, draftTitle, isDraftTitle } from "./draft";

describe("draft titles", () => {
  it.each(["Draft: x", "draft:x", "[Draft] x", "[DRAFT]x", "(Draft) x", "(draft)x", "  Draft: x"])("%s is a draft", (t) => expect(isDraftTitle(t)).toBe(true));
  it.each(["x Draft:", "Drafting", "WIP: x", "Draft x", "[Draft x"])("%s is not", (t) => expect(isDraftTitle(t)).toBe(false));
  it("strips and adds the prefix", () => {
    expect(draftlessTitle("[Draft] Fix it")).toBe("Fix it");
    expect(draftTitle("Fix it")).toBe("Draft: Fix it");
    expect(draftTitle("(draft) Fix it")).toBe("Draft: Fix it");
  });
});
