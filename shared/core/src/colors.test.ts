import { DARK_TEXT, isLightColor, isValidColor, LIGHT_TEXT, normalizeColor, textColorFor } from "./colors";

describe("normalizeColor", () => {
  test("CSS names become upper-case hex, whatever their case and surrounding spaces", () => {
    expect(normalizeColor("red")).toBe("#FF0000");
    expect(normalizeColor("  RebeccaPurple ")).toBe("#663399");
    expect(normalizeColor("LIGHTGOLDENRODYELLOW")).toBe("#FAFAD2");
  });

  test("hex values are kept as given, only trimmed", () => {
    expect(normalizeColor(" #abc ")).toBe("#abc");
    expect(normalizeColor("#5843AD")).toBe("#5843AD");
    expect(normalizeColor("#5843ad")).toBe("#5843ad");
  });

  test("unknown words pass through (and then fail validation)", () => {
    expect(normalizeColor("notacolor")).toBe("notacolor");
    expect(normalizeColor("constructor")).toBe("constructor");
    expect(isValidColor(normalizeColor("constructor"))).toBe(false);
  });
});

describe("isValidColor", () => {
  test.each(["#FFF", "#fff", "#FFAABB", "#a1B2c3"])("%s is valid", (c) => expect(isValidColor(c)).toBe(true));
  test.each(["FFAABB", "#FFFF", "#GGGGGG", "#FFAABBCC", "", "red", "#FFAABB\n"])("%j is invalid", (c) => expect(isValidColor(c)).toBe(false));
});

describe("textColorFor", () => {
  test("dark text on light backgrounds, white text on dark ones", () => {
    expect(textColorFor("#FFFFFF")).toBe(DARK_TEXT);
    expect(textColorFor("#FFFF00")).toBe(DARK_TEXT);
    expect(textColorFor("#000000")).toBe(LIGHT_TEXT);
    expect(textColorFor("#FF0000")).toBe(LIGHT_TEXT);
    expect(textColorFor("#0033CC")).toBe(LIGHT_TEXT);
  });

  test("uses WCAG luminance, not the old r+g+b > 500 rule", () => {
    // Pure green sums to 255 (old rule: white text) but is very luminous.
    expect(textColorFor("#00FF00")).toBe(DARK_TEXT);
    // Orange-ish sums to 491 (old rule: white text) yet white only reaches ~1.9:1 on it.
    expect(textColorFor("#F0AD4E")).toBe(DARK_TEXT);
  });

  test("the 2.4:1 threshold: white stays on mid greens that just reach it", () => {
    expect(textColorFor("#5CB85C")).toBe(LIGHT_TEXT);
  });

  test("short hex expands each digit", () => {
    expect(textColorFor("#abc")).toBe(textColorFor("#aabbcc"));
    expect(textColorFor("#abc")).toBe(DARK_TEXT);
    expect(textColorFor("#123")).toBe(LIGHT_TEXT);
  });

  test("the exact constants GitLab renders", () => {
    expect(DARK_TEXT).toBe("#1F1E24");
    expect(LIGHT_TEXT).toBe("#FFFFFF");
  });

  test("invalid colours count as dark", () => {
    expect(isLightColor("nope")).toBe(false);
    expect(textColorFor("nope")).toBe(LIGHT_TEXT);
  });
});
